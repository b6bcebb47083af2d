import Foundation
import Glibc
import Testing

@testable import ParleyHTTP

/// The delivery client over real sockets: framing, caps, redirects returned not followed,
/// timeouts, and TLS with certificate and host-name verification.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HTTPClientTests {
    static let loopback = IPAddress("127.0.0.1")!

    @Test func postsAndReadsContentLengthBodiesWithinTheCap() async throws {
        let live = try LiveServer.start()
        var settings = HTTPClientSettings()
        settings.maxResponseBytes = 1000
        let client = try HTTPClient(settings: settings)
        let echo = try client.send(
            "POST", try ClientURL("http://127.0.0.1:\(live.port)/echo"), headers: ["X-Test": "1"],
            body: Array("hello".utf8), to: Self.loopback)
        #expect(echo.status == 200 && echo.body == Array("hello".utf8) && !echo.truncated)
        let big = try client.send("GET", try ClientURL("http://127.0.0.1:\(live.port)/big/50000"), to: Self.loopback)
        #expect(big.status == 200 && big.body.count == 1000 && big.truncated)
        await live.stop()
    }

    @Test func readsChunkedBodiesAndReturnsRedirectsWithoutFollowingThem() throws {
        let chunked = CannedServer(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
        let client = try HTTPClient()
        let response = try client.send("POST", try ClientURL("http://127.0.0.1:\(chunked.port)/"), to: Self.loopback)
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == "hello world")

        let redirect = CannedServer("HTTP/1.1 302 Found\r\nLocation: http://10.0.0.1/\r\nContent-Length: 0\r\n\r\n")
        let moved = try client.send("POST", try ClientURL("http://127.0.0.1:\(redirect.port)/"), to: Self.loopback)
        #expect(moved.status == 302 && moved.headers["Location"] == "http://10.0.0.1/")
        #expect(redirect.connections == 1, "a redirect is never followed")
    }

    @Test func aSilentServerTimesOutAndAClosedPortIsAConnectError() throws {
        let silent = CannedServer(nil)
        var settings = HTTPClientSettings()
        settings.ioTimeout = 0.3
        let client = try HTTPClient(settings: settings)
        #expect {
            try client.send("POST", try ClientURL("http://127.0.0.1:\(silent.port)/"), to: Self.loopback)
        } throws: { error in
            guard case .io(let detail) = error as? HTTPClientError else { return false }
            return detail.contains("nothing within")
        }
        let port = silent.port
        silent.close()
        #expect {
            try client.send("POST", try ClientURL("http://127.0.0.1:\(port)/"), to: Self.loopback)
        } throws: { error in
            if case .connect = error as? HTTPClientError { return true }
            return false
        }
    }

    @Test func httpsVerifiesTheCertificateAndTheHostName() async throws {
        let tls = try TLSTests.makeCertificate()
        let live = try LiveServer.start { $0.tls = tls }
        var settings = HTTPClientSettings()
        settings.trustedCertificatesFile = tls.certificatePath
        let trusting = try HTTPClient(settings: settings)
        let ok = try trusting.send("GET", try ClientURL("https://localhost:\(live.port)/healthz"), to: Self.loopback)
        #expect(ok.status == 200 && String(decoding: ok.body, as: UTF8.self) == #"{"status":"ok"}"#)
        // The certificate names localhost, not 127.0.0.1.
        #expect(throws: HTTPClientError.self) {
            try trusting.send("GET", try ClientURL("https://127.0.0.1:\(live.port)/healthz"), to: Self.loopback)
        }
        // A self-signed certificate is not in the system's trust store.
        #expect(throws: HTTPClientError.self) {
            try HTTPClient().send("GET", try ClientURL("https://localhost:\(live.port)/healthz"), to: Self.loopback)
        }
        await live.stop()
    }

    @Test func resolvesNamesToEveryAddress() throws {
        let addresses = try HostResolver.resolve("localhost")
        #expect(addresses.contains { AddressCategory($0) == .loopback })
        #expect(try HostResolver.resolve("192.0.2.1") == [IPAddress("192.0.2.1")!])
        #expect(throws: HTTPClientError.self) { try HostResolver.resolve("no-such-host.invalid") }
    }
}

/// A one-port server that answers every connection with a canned response (nil: never answers).
final class CannedServer: @unchecked Sendable {
    // Safe: `accepted` and `open` are only touched under `lock`; `port` and `fd` never change; the
    // accept thread holds the server weakly and stops when `close()` shuts the socket down.
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var accepted = 0
    private var open = true

    init(_ response: String?) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(listener, 8)
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        fd = listener
        port = Int(UInt16(bigEndian: bound.sin_port))
        Thread.detachNewThread { [weak self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                self?.countAccepted()
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = recv(connection, &buffer, buffer.count, 0)
                if let response {
                    _ = Array(response.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
                    Glibc.close(connection)
                }
            }
        }
    }

    deinit { close() }

    private func countAccepted() { lock.withLock { accepted += 1 } }

    /// Connections accepted so far.
    var connections: Int { lock.withLock { accepted } }

    /// Stops listening.
    func close() {
        lock.withLock {
            guard open else { return }
            open = false
            shutdown(fd, Int32(SHUT_RDWR))
            Glibc.close(fd)
        }
    }
}
