import Glibc

/// Sole owner of an open file descriptor: it closes on `deinit` and cannot be copied, so a
/// descriptor can neither leak nor be closed twice (STYLE.md: unlike FlyingFox's socket).
struct FileDescriptor: ~Copyable, Sendable {
    /// The descriptor number; valid while this value lives.
    let rawValue: Int32

    /// Takes ownership of `rawValue`.
    init(owning rawValue: Int32) { self.rawValue = rawValue }

    deinit { Syscall.close(rawValue) }

    /// Gives up ownership without closing, for handing the descriptor to another owner.
    consuming func release() -> Int32 {
        let raw = rawValue
        discard self
        return raw
    }
}
