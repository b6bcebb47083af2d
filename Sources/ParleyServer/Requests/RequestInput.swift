import ParleyCore
import ParleyHTTP

/// The rules every handler applies to path parameters, cursors and channels, in one place so
/// `/openapi.json` can state each limit exactly (``OpenAPIParameters``, ``OpenAPISchemas``).
enum RequestInput {
    /// Longest id accepted in a path or cursor, in Unicode scalars: what JSON Schema's `maxLength`
    /// counts, so `/openapi.json` states the limit exactly (``OpenAPISchemas/identifier``).
    static let maximumIdentifierLength = 200

    /// Most digits of a positive integer in a path or query (ids, versions, cursors): always fits an `Int`.
    static let maximumIntegerDigits = 18

    /// A required path parameter (the router guarantees it is present).
    static func parameter(_ name: String, _ context: RequestContext) throws(HTTPError) -> String {
        guard let value = context.parameters[name], isIdentifier(value) else {
            throw ServiceProblem.badParameter(
                "\(name) must be 1 to \(maximumIdentifierLength) characters without U+0000")
        }
        return value
    }

    /// 1 to ``maximumIdentifierLength`` Unicode scalars, none of them U+0000.
    static func isIdentifier(_ value: String) -> Bool {
        // A scalar takes at least one UTF-8 byte, so a value that fits in bytes needs no scalar count.
        let bytes = value.utf8.count
        return bytes > 0 && (bytes <= maximumIdentifierLength || value.unicodeScalars.count <= maximumIdentifierLength)
            && !(value.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? value.utf8.contains(0))
    }

    /// A positive integer path parameter.
    static func number(_ name: String, _ context: RequestContext) throws(HTTPError) -> Int {
        guard let value = context.parameters[name].flatMap(positiveInteger) else {
            throw ServiceProblem.badParameter("\(name) must be a positive integer")
        }
        return value
    }

    /// `text` as a positive integer written canonically (`^[1-9][0-9]{0,17}$`), else nil.
    static func positiveInteger(_ text: String) -> Int? {
        guard text.utf8.count <= maximumIntegerDigits, let value = Int(text), value > 0, String(value) == text
        else { return nil }
        return value
    }

    /// 1 to `maximumLength` scalars, none of them a space or control character (``OpenAPIParameters/channel``).
    static func isChannelName(_ channel: String, maximumLength: Int) -> Bool {
        !channel.isEmpty && channel.unicodeScalars.count <= maximumLength
            && channel.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
    }
}
