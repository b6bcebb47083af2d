/// A document's `schema` string, `parley.<kind>/<major>[.<minor>]`.
///
/// docs/wire-format.md: an unknown major version is rejected with a clear
/// error; minor versions only add optional things and are accepted.
public struct SchemaVersion: Sendable, Hashable, CustomStringConvertible {
    /// The document kind (`screen`, `flow`, `bundle`).
    public let kind: String
    /// Major version; only ``supportedMajor`` is understood.
    public let major: Int
    /// Minor version, 0 when absent.
    public let minor: Int

    /// The only major version this core understands.
    public static let supportedMajor = 1

    /// Current screen schema.
    public static let screen = SchemaVersion(kind: "screen", major: 1, minor: 0)
    /// Current flow schema.
    public static let flow = SchemaVersion(kind: "flow", major: 1, minor: 0)
    /// Current bundle schema.
    public static let bundle = SchemaVersion(kind: "bundle", major: 1, minor: 0)

    init(kind: String, major: Int, minor: Int) {
        self.kind = kind
        self.major = major
        self.minor = minor
    }

    /// Parses and checks a `schema` value for the expected kind.
    public static func check(
        _ value: JSONValue?, expected: String, at pointer: JSONPointer
    ) throws(ModelDecodingError) -> SchemaVersion {
        guard let value else {
            throw .unsupportedSchema(pointer, "\"schema\" is required; expected \"parley.\(expected)/1\"")
        }
        guard case .string(let text) = value else {
            throw .unsupportedSchema(pointer, "\"schema\" must be a string such as \"parley.\(expected)/1\"")
        }
        let prefix = "parley.\(expected)/"
        guard text.hasPrefix(prefix) else {
            throw .unsupportedSchema(pointer, "\"schema\" is \"\(text)\"; expected \"parley.\(expected)/1\"")
        }
        let version = text.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(version.count), let major = Self.parseNumber(version[0]),
            let minor = version.count == 2 ? Self.parseNumber(version[1]) : 0
        else {
            throw .unsupportedSchema(pointer, "\"schema\" \"\(text)\" has a malformed version")
        }
        guard major == supportedMajor else {
            throw .unsupportedSchema(
                pointer,
                "\"schema\" \"\(text)\" has major version \(major); this core understands only \(supportedMajor)")
        }
        return SchemaVersion(kind: expected, major: major, minor: minor)
    }

    private static func parseNumber(_ text: Substring) -> Int? {
        // Digits only, no leading zero ("01" is malformed): one spelling per version.
        guard !text.isEmpty, text.count <= 6, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            text == "0" || text.first != "0"
        else { return nil }
        return Int(text)
    }

    /// Always written as `parley.<kind>/<major>`, the form every core accepts.
    public var description: String { "parley.\(kind)/\(major)" }
}
