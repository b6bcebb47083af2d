public import Foundation
import Testing

/// Blocking waits that give up (STYLE.md, convention 15): a ceiling generous enough that it
/// never decides a result on a slow machine, only turns a hang into a failure that names it.
public enum HangGuard {
    /// Waits for `group` at most `seconds`; records an issue naming `what` and returns false
    /// when they pass first.
    @discardableResult
    public static func wait(for group: DispatchGroup, seconds: Double = 180, _ what: String) -> Bool {
        guard group.wait(timeout: .now() + seconds) == .success else {
            Issue.record("\(what) did not finish within \(Int(seconds)) s")
            return false
        }
        return true
    }
}
