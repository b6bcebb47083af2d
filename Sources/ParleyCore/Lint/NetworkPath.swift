/// docs/wire-format.md "Actions": a `network` request's `path` is relative to the API the
/// client already talks to — no scheme, no host, no `//`, no `..` segment — so
/// a published flow can never point a client's credentials elsewhere.
enum NetworkPath {
    /// Why `path` is not acceptable, or `nil` when it is.
    static func problem(in path: String) -> String? {
        if path.isEmpty { return "The path is empty; write it relative, e.g. \"orders/reorder\"." }
        if path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" }) {
            return "The path contains spaces, control characters or a backslash."
        }
        if hasScheme(path) { return "The path must be relative; it starts with a scheme such as https:." }
        if path.hasPrefix("//") { return "The path must be relative; \"//\" would name another host." }
        if path.hasPrefix("/") { return "The path must be relative to the API, without a leading \"/\"." }
        let beforeQuery = path.prefix { $0 != "?" && $0 != "#" }
        if beforeQuery.contains("//") { return "The path must not contain \"//\"." }
        let lowered = beforeQuery.lowercased()
        if lowered.contains("%2e") || lowered.contains("%2f") || lowered.contains("%5c") {
            return "The path must not hide \".\", \"/\" or \"\\\" behind percent-encoding."
        }
        for segment in beforeQuery.split(separator: "/", omittingEmptySubsequences: false)
        where segment == "." || segment == ".." {
            return "The path must not contain a \".\" or \"..\" segment."
        }
        return nil
    }

    /// RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"` before any `/`.
    private static func hasScheme(_ path: String) -> Bool {
        var first = true
        for scalar in path.unicodeScalars {
            let isAlpha = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
            if scalar == ":" { return !first }
            if first {
                guard isAlpha else { return false }
                first = false
                continue
            }
            let isDigit = scalar >= "0" && scalar <= "9"
            guard isAlpha || isDigit || scalar == "+" || scalar == "-" || scalar == "." else { return false }
        }
        return false
    }
}
