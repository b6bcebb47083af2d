import ParleyCrypto
import ParleyHTTP
import ParleyStudio

/// The studio's responses, built once from the embedded assets: each with a strong
/// ETag and the headers that keep the page safe (DESIGN.md "Studio").
struct StudioSite: Sendable {
    /// One prebuilt answer.
    struct Page: Sendable {
        let body: [UInt8]
        let etag: String
        let headers: HTTPHeaders
    }

    /// No inline script or style, nothing from another origin: the page can only run
    /// the studio's own modules and talk to this server. `'wasm-unsafe-eval'` lets it compile
    /// WebAssembly (parley-core.wasm, from this server only); it allows no JavaScript `eval`.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

    /// The built site (the assets never change while the process runs).
    static let shared = StudioSite(assets: StudioAsset.all)

    /// The app shell every studio URL answers with (deep links are resolved in the page).
    let shell: Page
    private let assets: [String: Page]

    init(assets: [StudioAsset]) {
        var pages: [String: Page] = [:]
        for asset in assets { pages[asset.name] = Self.page(asset.bytes, contentType: asset.contentType) }
        shell = pages["index.html"] ?? Self.page(Array("studio missing".utf8), contentType: "text/plain")
        self.assets = pages
    }

    /// The asset called `name`, if any.
    func asset(_ name: String) -> Page? { assets[name] }

    /// 304 when `If-None-Match` names the page's ETag, else the page.
    func response(_ page: Page, for request: HTTPRequest) -> HTTPResponse {
        if let condition = request.headers["If-None-Match"], EntityTag.matches(condition, page.etag) {
            return HTTPResponse(status: .notModified, headers: page.headers)
        }
        return HTTPResponse(status: .ok, headers: page.headers, body: page.body)
    }

    /// A page for `body`: a strong ETag from its hash, `no-cache` (revalidate, 304 when unchanged),
    /// so a new server never leaves an old studio script or core module in a browser.
    static func page(_ body: [UInt8], contentType: String) -> Page {
        let etag = "\"" + Hex.encode(Array(SHA256.hash(body).prefix(16))) + "\""
        let headers: HTTPHeaders = [
            "Content-Type": contentType, "ETag": etag, "Cache-Control": "no-cache",
            "Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer", "Cross-Origin-Opener-Policy": "same-origin",
        ]
        return Page(body: body, etag: etag, headers: headers)
    }
}
