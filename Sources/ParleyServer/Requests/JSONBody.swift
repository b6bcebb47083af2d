import Foundation
import ParleyCore
import ParleyHTTP

/// Reads a request's JSON body: media type checked, parse errors with line and column.
enum JSONBody {
    /// The parsed body; 415 for a non-JSON media type, 400 for malformed JSON.
    static func parse(_ request: HTTPRequest) throws(HTTPError) -> JSONValue {
        if let type = request.headers["Content-Type"] {
            let essence = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard essence == "application/json" || essence?.hasSuffix("+json") == true else {
                throw ServiceProblem.unsupportedMediaType(type)
            }
        }
        guard !request.body.isEmpty else {
            throw ServiceProblem.malformedBody("the body is empty; send a JSON document")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            throw ServiceProblem.malformedBody("not valid JSON: \(error)")
        }
        // Postgres text and jsonb cannot hold U+0000: refuse it here (400) rather than
        // failing the INSERT of a flow, bundle or submit (500).
        if let pointer = nulPointer(in: value, at: .root) {
            throw ServiceProblem.malformedBody("U+0000 cannot be stored; found in a string or key at \"\(pointer)\"")
        }
        return value
    }

    /// Where the first string or member name containing U+0000 is, if any.
    private static func nulPointer(in value: JSONValue, at pointer: JSONPointer) -> JSONPointer? {
        switch value {
        case .string(let text): return text.utf8.contains(0) ? pointer : nil
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let found = nulPointer(in: item, at: pointer.appending(index)) { return found }
            }
            return nil
        case .object(let object):
            for member in object {
                let child = pointer.appending(member.key)
                if member.key.utf8.contains(0) { return child }
                if let found = nulPointer(in: member.value, at: child) { return found }
            }
            return nil
        case .null, .bool, .number: return nil
        }
    }

    /// The body as a JSON object.
    static func object(_ request: HTTPRequest) throws(HTTPError) -> JSONObject {
        let value = try parse(request)
        guard case .object(let object) = value else {
            throw ServiceProblem.malformedBody("the body must be a JSON object, found \(value.kindDescription)")
        }
        return object
    }
}
