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
        do {
            return try JSONParser.parse(request.body)
        } catch {
            throw ServiceProblem.malformedBody("not valid JSON: \(error)")
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
