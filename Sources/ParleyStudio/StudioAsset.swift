/// One file of the web studio (DESIGN.md "Studio"), compiled into the binary so
/// the server reads nothing from disk at run time (STYLE.md convention 13).
public struct StudioAsset: Sendable {
    /// File name under `web/`, as served under `/studio/assets/`.
    public let name: String
    /// The `Content-Type` it is served with.
    public let contentType: String
    /// The file's bytes (UTF-8 text).
    public let bytes: [UInt8]

    init(name: String, contentType: String, text: String) {
        self.name = name
        self.contentType = contentType
        // A multi-line literal drops the newline before its closing delimiter; the file had it.
        bytes = Array((text + "\n").utf8)
    }

    /// The asset called `name`, if the studio has one.
    public static func named(_ name: String) -> StudioAsset? {
        all.first { $0.name == name }
    }
}
