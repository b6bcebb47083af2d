public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, for the tests: the part of Foundation's
/// `Process` they use, without its `run()`. Swift 6.3.1's `Process.run()` reads
/// `/proc/self/fd` with a `readdir` entry copied whole (256 bytes, past a short record), which
/// crashes the test process with SIGSEGV now and then when that record ends a mapped page
/// (swift-corelibs-foundation #5472, fixed after 6.3.1; it crashed one CI run in several).
/// Here the child closes every descriptor from 3 on in `posix_spawn` itself
/// (`posix_spawn_file_actions_addclosefrom_np`), so nothing is enumerated.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: the settings are written before `run()` on one thread, as with `Process`;
    // what changes afterwards (the exit status) is behind `state`.

    /// The program to run.
    public var executableURL: URL?
    /// Its arguments, without the program's name.
    public var arguments: [String] = []
    /// Its whole environment; nil inherits this process's.
    public var environment: [String: String]?
    /// Its working directory; nil inherits this process's.
    public var currentDirectoryURL: URL?
    /// A `FileHandle` or a `Pipe` (the child's end is used); nil inherits this process's.
    public var standardInput: Any?
    /// A `FileHandle` or a `Pipe` (the child's end is used); nil inherits this process's.
    public var standardOutput: Any?
    /// A `FileHandle` or a `Pipe` (the child's end is used); nil inherits this process's.
    public var standardError: Any?

    private enum Status {
        case notStarted
        case running(pid_t)
        case exited(pid: pid_t, status: Int32)
    }
    private let state = Mutex(Status.notStarted)
    /// Serializes `waitpid`, so one caller reaps and every other sees the status it stored.
    private let reaping = NSLock()

    public init() {}

    /// The child's process id (0 before `run()`).
    public var processIdentifier: Int32 {
        state.withLock { state in
            switch state {
            case .notStarted: 0
            case .running(let pid), .exited(let pid, _): pid
            }
        }
    }

    /// Starts the child. Throws when it cannot be spawned (`posix_spawn`'s error).
    public func run() throws {
        guard let executableURL else { throw SpawnError(message: "no executable", code: EINVAL) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(0, standardInput), (1, standardOutput), (2, standardError)] {
            if let handle = source as? FileHandle, handle === FileHandle.nullDevice {
                // Foundation's null device has no descriptor of its own (-1): open /dev/null.
                try Self.check(
                    posix_spawn_file_actions_addopen(&actions, Int32(target), "/dev/null", O_RDWR, 0), "/dev/null")
                continue
            }
            guard let fd = Self.childDescriptor(source, reading: target == 0) else { continue }
            try Self.check(posix_spawn_file_actions_adddup2(&actions, fd, Int32(target)), "dup2")
        }
        try Self.check(Self.addCloseFrom(&actions, 3), "closefrom")
        if let directory = currentDirectoryURL {
            try Self.check(Self.addChdir(&actions, directory.path), "chdir")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with default signal handling and nothing blocked, as from a shell.
        var everything = sigset_t()
        sigfillset(&everything)
        var nothing = sigset_t()
        sigemptyset(&nothing)
        posix_spawnattr_setsigdefault(&attributes, &everything)
        posix_spawnattr_setsigmask(&attributes, &nothing)
        try Self.check(
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)), "flags")

        let path = executableURL.path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        try Self.check(posix_spawn(&pid, path, &actions, &attributes, argv, envp), "posix_spawn \(path)")
        state.withLock { $0 = .running(pid) }
        // The parent's copies of the child's pipe ends, as `Process` does: a reader of the
        // child's output then sees end of file when the child exits.
        (standardInput as? Pipe)?.fileHandleForReading.closeFile()
        (standardOutput as? Pipe)?.fileHandleForWriting.closeFile()
        (standardError as? Pipe)?.fileHandleForWriting.closeFile()
    }

    /// `run()`, never overlapping another test's spawn (see ``ChildSpawning``).
    public func runAlone() throws {
        try ChildSpawning.alone { try run() }
    }

    /// Whether the child was started and has not exited.
    public var isRunning: Bool {
        reap(blocking: false)
        return state.withLock { if case .running = $0 { true } else { false } }
    }

    /// Waits for the child to exit (returns at once if it was never started).
    public func waitUntilExit() { reap(blocking: true) }

    /// Its exit code, or the signal that ended it (`Process`'s convention); 0 until it exits.
    public var terminationStatus: Int32 {
        state.withLock { state in
            guard case .exited(_, let status) = state else { return 0 }
            return Self.exited(status) ? Self.exitCode(status) : Self.signal(status)
        }
    }

    /// Sends SIGTERM.
    public func terminate() { send(SIGTERM) }

    /// Sends SIGINT.
    public func interrupt() { send(SIGINT) }

    private func send(_ signal: Int32) {
        guard case .running(let pid) = state.withLock({ $0 }) else { return }
        kill(pid, signal)
    }

    private func reap(blocking: Bool) {
        // A look (isRunning) never waits behind another thread's blocking wait: while that one
        // waits, the child is running.
        if blocking { reaping.lock() } else if !reaping.try() { return }
        defer { reaping.unlock() }
        guard case .running(let pid) = state.withLock({ $0 }) else { return }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid { break }
            if result == -1 && errno == EINTR { continue }
            if result == -1 {
                // Reaped elsewhere (never by these tests): nothing to wait for.
                state.withLock { $0 = .exited(pid: pid, status: 0) }
            }
            return
        }
        state.withLock { $0 = .exited(pid: pid, status: status) }
    }

    private static func childDescriptor(_ source: Any?, reading: Bool) -> Int32? {
        switch source {
        case let handle as FileHandle: handle.fileDescriptor
        case let pipe as Pipe:
            reading ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        default: nil
        }
    }

    private static func exited(_ status: Int32) -> Bool { status & 0x7f == 0 }
    private static func exitCode(_ status: Int32) -> Int32 { (status >> 8) & 0xff }
    private static func signal(_ status: Int32) -> Int32 { status & 0x7f }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc
    /// module does not declare.
    private static func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32)
        -> Int32
    {
        guard let symbol = libc("posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)(actions, from)
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), likewise undeclared.
    private static func addChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        guard let symbol = libc("posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
        return path.withCString { unsafeBitCast(symbol, to: AddChdir.self)(actions, $0) }
    }

    private static func libc(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)  // RTLD_DEFAULT
    }

    private static func check(_ code: Int32, _ what: String) throws {
        guard code == 0 else { throw SpawnError(message: what, code: code) }
    }

    /// A spawn that failed, with `posix_spawn`'s error.
    public struct SpawnError: Error, CustomStringConvertible {
        let message: String
        let code: Int32
        public var description: String { "\(message): \(String(cString: strerror(code)))" }
    }
}
