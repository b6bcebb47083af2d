import Foundation
import Testing

@testable import ParleyHTTP

/// Issue 16: bytes that can never be HTTP get 400 and a close at once, not a 408 after the
/// header timeout. The header timeout here is a minute and the client gives up after ten
/// seconds (a hang guard only), so a 400 with a close can only come from early rejection.
@Suite(.serialized, .timeLimit(.minutes(10))) struct EarlyRejectionTests {
    static let clientHello: [UInt8] = [
        0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03, 0x5A, 0x1C, 0x00, 0x00, 0x20,
    ]

    static let openers: [(String, [UInt8])] = [
        ("TLS ClientHello", clientHello),
        ("binary garbage", [0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x01]),
        ("invalid method token", Array("G@T / HTTP/1.1\r\n".utf8)),
    ]

    @Test(arguments: openers.indices)
    func garbageGets400AndACloseWithoutWaitingForTheHead(index: Int) async throws {
        let (name, bytes) = Self.openers[index]
        let live = try LiveServer.start { $0.headerReadTimeout = .seconds(60) }
        let client = try TestClient(port: live.port, timeout: 10)
        try client.send(bytes)  // no CRLF CRLF ever follows
        let response = try client.readResponse()
        #expect(response.status == 400, "\(name)")
        #expect(response.header("Connection") == "close", "\(name)")
        #expect(response.header("Content-Type") == "application/problem+json", "\(name)")
        #expect(client.isClosedByServer(), "\(name)")
        await live.stop()
    }

    @Test func aSlowButValidHeadIsStillServed() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        for byte in Array(String.get("/healthz").utf8) { try client.send([byte]) }
        #expect(try client.readResponse().status == 200)
        await live.stop()
    }
}
