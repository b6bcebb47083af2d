import CEpoll
import Glibc

/// The thin layer where every socket system call lives; each turns errno into `SocketError`.
enum Syscall {
    /// A listening TCP socket bound to `host:port` with SO_REUSEADDR and SO_REUSEPORT, so every
    /// event loop can own one and the kernel spreads connections between them.
    static func listen(host: String, port: Int, backlog: Int, reusePort: Bool = true) throws(SocketError)
        -> FileDescriptor
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let info = list else {
            throw .address("\(host):\(port): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        let raw = socket(info.pointee.ai_family, type, 0)
        guard raw >= 0 else { throw .system("socket") }
        let socket = FileDescriptor(owning: raw)
        try setOption(socket.rawValue, SOL_SOCKET, SO_REUSEADDR, 1)
        if reusePort { try setOption(socket.rawValue, SOL_SOCKET, SO_REUSEPORT, 1) }
        guard bind(socket.rawValue, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            throw .system("bind \(host):\(port)")
        }
        guard Glibc.listen(socket.rawValue, Int32(clamping: backlog)) == 0 else { throw .system("listen") }
        return socket
    }

    /// Sets an integer socket option.
    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws(SocketError) {
        var value = value
        guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw .system("setsockopt")
        }
    }

    /// The port a socket is bound to.
    static func boundPort(_ fd: Int32) throws(SocketError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw .system("getsockname") }
        return address(of: storage).port
    }

    /// Accepts one connection, non-blocking and close-on-exec, with TCP_NODELAY so a response
    /// never waits on Nagle's algorithm; nil when none is pending. `peer` receives `host:port`.
    static func accept(_ listener: Int32, peer: inout String) throws(SocketError) -> FileDescriptor? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let raw = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.accept(listener, $0, &length)
            }
        }
        guard raw >= 0 else {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED || errno == EINTR { return nil }
            throw .system("accept4")
        }
        let socket = FileDescriptor(owning: raw)
        // accept4 is hidden behind _GNU_SOURCE in Swift's Glibc module; two fcntl calls per
        // connection (not per request) are cheap.
        guard fcntl(raw, F_SETFL, fcntl(raw, F_GETFL) | O_NONBLOCK) == 0, fcntl(raw, F_SETFD, FD_CLOEXEC) == 0 else {
            throw .system("fcntl")
        }
        try? setOption(raw, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        let address = address(of: storage)
        peer = "\(address.host):\(address.port)"
        return socket
    }

    /// The numeric host and port in a socket address.
    static func address(of storage: sockaddr_storage) -> (host: String, port: Int) {
        var storage = storage
        let family = Int32(storage.ss_family)
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        return withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var inner = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &inner, &buffer, socklen_t(buffer.count))
                    return (cString(buffer), Int(UInt16(bigEndian: address.pointee.sin6_port)))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                var inner = address.pointee.sin_addr
                inet_ntop(AF_INET, &inner, &buffer, socklen_t(buffer.count))
                return (cString(buffer), Int(UInt16(bigEndian: address.pointee.sin_port)))
            }
        }
    }

    /// The text of a NUL-terminated C buffer.
    static func cString(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A new epoll instance.
    static func epollCreate() throws(SocketError) -> FileDescriptor {
        let raw = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard raw >= 0 else { throw .system("epoll_create1") }
        return FileDescriptor(owning: raw)
    }

    /// Adds, modifies or removes interest in `fd`; the event carries `fd` back.
    static func epollControl(_ epoll: Int32, _ operation: Int32, _ fd: Int32, events: UInt32) throws(SocketError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        guard epoll_ctl(epoll, operation, fd, &event) == 0 else { throw .system("epoll_ctl") }
    }

    /// Waits up to `timeout` ms for events on `epoll`, filling `events` from the front; the
    /// count, or -1 with `errno` set (EINTR included: the caller retries).
    static func epollWait(_ epoll: Int32, into events: inout [epoll_event], timeout: Int32) -> Int32 {
        events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), timeout) }
    }

    /// Closes a descriptor nothing else owns (``FileDescriptor`` closes the ones it owns).
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// A non-blocking eventfd used to wake a loop from another thread.
    static func eventFD() throws(SocketError) -> FileDescriptor {
        let raw = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard raw >= 0 else { throw .system("eventfd") }
        return FileDescriptor(owning: raw)
    }

    /// One non-blocking read from a socket.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOStatus {
        let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wantRead : .failed
    }

    /// One non-blocking write of one or two pieces: both in one `sendmsg` (a writev with flags),
    /// with MSG_NOSIGNAL so a vanished client raises no SIGPIPE.
    static func send(_ fd: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?) -> IOStatus {
        let count: Int
        if let second {
            var vectors = (
                iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
                iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count)
            )
            count = withUnsafeMutableBytes(of: &vectors) { raw in
                var message = msghdr()
                message.msg_iov = raw.baseAddress!.assumingMemoryBound(to: iovec.self)
                message.msg_iovlen = 2
                return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            }
        } else {
            count = Glibc.send(fd, first.baseAddress, first.count, Int32(MSG_NOSIGNAL))
        }
        if count >= 0 { return .bytes(count) }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wantWrite : .failed
    }

    /// Shuts the write side (the peer reads EOF after what was sent).
    static func shutdownWrite(_ fd: Int32) {
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Adds one to an eventfd's counter, waking whoever polls it.
    static func signal(eventFD fd: Int32) {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(fd, $0.baseAddress, 8) }
    }

    /// Resets an eventfd's counter after a wake-up.
    static func reset(eventFD fd: Int32) {
        var counter: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &counter) { Glibc.read(fd, $0.baseAddress, 8) }
    }

    /// Monotonic nanoseconds, for deadlines.
    static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Writes all of `bytes` to `fd`, retrying partial writes and EINTR; gives up on other
    /// errors (a log destination that fails must not stop the server).
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
