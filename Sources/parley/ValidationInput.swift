import Foundation
import ParleyCore

/// Reads `parley validate`'s inputs; every failure is "unreadable input" (exit 2).
enum ValidationInput {
    /// Why an input cannot be used, in a sentence.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The screen in `path`: a screen document, or the step `step` of a flow document.
    static func screen(at path: String, step: String?) throws -> Screen {
        try screen(from: try json(at: path), step: step, source: path)
    }

    /// The screen in a decoded document; refuses screens whose rules are ill-formed.
    static func screen(from document: JSONValue, step: String?, source: String) throws -> Screen {
        do {
            return try Screen.validatable(from: document, step: step, source: source, stepHint: "with --step")
        } catch {
            throw Problem(description: error.description)
        }
    }

    /// The answers object in `path`.
    static func answers(at path: String) throws -> Answers {
        do {
            return try Answers(try json(at: path))
        } catch let error as AnswersError {
            throw Problem(description: "\(path): \(error)")
        }
    }

    static func json(at path: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "cannot read \(path)")
        }
        do {
            return try JSONParser.parse(Array(data))
        } catch {
            throw Problem(description: "\(path) is not valid JSON: \(error)")
        }
    }
}
