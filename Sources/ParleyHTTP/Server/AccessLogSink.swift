import Glibc

/// Where batches of access-log lines go. Called on an event loop's thread with whole lines
/// only; it must not block for long (standard error normally drains at once).
public protocol AccessLogSink: Sendable {
    /// Writes `lines` (one or more complete, newline-terminated lines).
    func write(_ lines: UnsafeRawBufferPointer)
}

/// A file descriptor (standard error by default; standard output for JSON logs), written in
/// pieces of at most `PIPE_BUF` bytes cut at line ends, so lines from several loops (or other
/// loggers) never interleave inside a line.
public struct FileDescriptorSink: AccessLogSink {
    private let fileDescriptor: Int32

    /// The sink for file descriptor 2.
    public init() { fileDescriptor = 2 }

    /// The sink for another descriptor, e.g. 1 where JSON log lines go.
    public init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    /// Writes `lines` to the descriptor.
    public func write(_ lines: UnsafeRawBufferPointer) {
        var start = 0
        while start < lines.count {
            var end = min(lines.count, start + Int(PIPE_BUF))
            if end < lines.count {
                // Cut after the last newline in the piece (a longer line goes whole).
                var cut = end
                while cut > start, lines[cut - 1] != 10 { cut -= 1 }
                end = cut > start ? cut : end
            }
            Syscall.writeAll(fileDescriptor, UnsafeRawBufferPointer(rebasing: lines[start..<end]))
            start = end
        }
    }
}
