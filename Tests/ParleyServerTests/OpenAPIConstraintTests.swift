import Foundation
import ParleyCore
import Testing

@testable import ParleyServer

/// `/openapi.json` states the constraints the handlers enforce, exactly (issue 14): a value fits
/// the documented schema if and only if the handler accepts it. Schemathesis checks this against
/// the live server (`deploy/schemathesis`); these pin the rules that are easy to get subtly wrong.
@Suite(.timeLimit(.minutes(10))) struct OpenAPIConstraintTests {
    static func matches(_ pattern: String, _ text: String) throws -> Bool {
        let expression = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }

    static func schema(_ operation: ServiceOperation, _ location: String, _ name: String) throws -> JSONValue {
        let route = try #require(ServiceRoute.all.first { $0.operation == operation })
        let parameter = try #require(
            OpenAPIParameters.all(for: route).first {
                $0["in"]?.stringValue == location && $0["name"]?.stringValue == name
            })
        return try #require(parameter["schema"])
    }

    @Test(arguments: [
        "1.0", "1.2.0", "2.0.0-rc.1", "1.0.0-0", "1.0.0-0a", "1.0.0-a-b.7", "1.2.3+001", "1.2.3-rc.1+build.07",
        "999999999.0", "1.0-00", "1.0.0-01", "01.2", "1.02.0", "1.2.3.4", "1.2.", "1", "v1.2.0", "1.2.0-", "1.2.0+",
        "1.2.0-a..b", "1.2.0-a_b", "1000000000.0", String(repeating: "0", count: 129),
    ])
    func parleyCorePatternAgreesWithTheParser(_ text: String) throws {
        let schema = try Self.schema(.getStartScreen, "header", "Parley-Core")
        let pattern = try #require(schema["pattern"]?.stringValue)
        let maximum = try #require(schema["maxLength"]?.numberValue?.intValue)
        let documented = try Self.matches(pattern, text) && text.count <= maximum
        let accepted = (try? CoreVersion(parsing: text)) != nil
        #expect(documented == accepted, "\(text): documented \(documented), parser \(accepted)")
    }

    @Test(arguments: [
        "a", "passport-intake", String(repeating: "é", count: 200), "", "a\u{0}b", String(repeating: "😀", count: 201),
    ])
    func identifiersAreCountedInCharactersAsJSONSchemaCounts(_ text: String) throws {
        let schema = OpenAPISchemas.identifier
        let documented =
            try Self.matches(try #require(schema["pattern"]?.stringValue), text)
            && text.unicodeScalars.count >= (schema["minLength"]?.numberValue?.intValue ?? 0)
            && text.unicodeScalars.count <= (schema["maxLength"]?.numberValue?.intValue ?? .max)
        #expect(documented == RequestInput.isIdentifier(text), "\(text.prefix(8))…")
    }

    @Test(arguments: ["1", "42", "999999999999999999", "0", "01", "-1", "+1", "1.0", "1000000000000000000", " 1", ""])
    func positiveIntegersAgreeWithTheHandlers(_ text: String) throws {
        let pattern = try #require(OpenAPIParameters.positiveInteger["pattern"]?.stringValue)
        #expect(try Self.matches(pattern, text) == (RequestInput.positiveInteger(text) != nil), "\(text)")
    }

    @Test(arguments: ["production", "beta-2", "ünïcode", "", "with space", "tab\t", String(repeating: "c", count: 101)])
    func channelsAgreeWithTheHandlers(_ text: String) throws {
        let schema = OpenAPIParameters.channel
        let documented =
            try Self.matches(try #require(schema["pattern"]?.stringValue), text)
            && (1...(schema["maxLength"]?.numberValue?.intValue ?? 0)).contains(text.unicodeScalars.count)
        let accepted = RequestInput.isChannelName(text, maximumLength: ServiceConfiguration().maxChannelLength)
        #expect(documented == accepted, "\(text)")
    }
}
