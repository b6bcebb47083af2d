import Testing

@testable import ParleyHTTP

@Suite(.timeLimit(.minutes(10))) struct ClientURLTests {
    @Test func splitsSchemeHostPortAndTarget() throws {
        let url = try ClientURL("HTTPS://Example.COM/hooks/in?x=1#frag")
        #expect(url.scheme == "https" && url.host == "example.com" && url.port == 443)
        #expect(url.target == "/hooks/in?x=1" && url.hostHeader == "example.com")
        let plain = try ClientURL("http://127.0.0.1:8080")
        #expect(plain.port == 8080 && plain.target == "/" && plain.hostHeader == "127.0.0.1:8080")
        let v6 = try ClientURL("https://[::1]:9/a")
        #expect(v6.host == "::1" && v6.port == 9 && v6.hostHeader == "[::1]:9")
        #expect(try ClientURL("https://h?q").target == "/?q")
    }

    @Test(arguments: [
        "", "ftp://example.com/", "example.com/hook", "https:example.com", "https://user:pw@example.com/",
        "https://example.com:0/", "https://example.com:70000/", "https://example.com:x/", "https:///path",
        "https://[::1/", "https://[example]/", "https://exa mple.com/", "https://example.com/\u{7F}",
    ])
    func refuses(_ text: String) {
        #expect(throws: HTTPClientError.self, "\(text)") { try ClientURL(text) }
    }
}
