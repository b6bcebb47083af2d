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
        let schema = document["schema"]?.stringValue ?? ""
        let screen: Screen
        let pointer: JSONPointer
        do {
            if schema.hasPrefix("parley.flow/") {
                let flow = try Flow(json: document, at: .root)
                guard let stepId = step else {
                    throw Problem(description: "\(source) is a flow: name a step with --step")
                }
                guard let index = flow.steps.firstIndex(where: { $0.id.isScalarEqual(to: stepId) }) else {
                    let known = flow.steps.map(\.id).joined(separator: ", ")
                    throw Problem(description: "\(source) has no step \"\(stepId)\" (steps: \(known))")
                }
                screen = flow.steps[index].screen
                pointer = JSONPointer.root.appending("steps").appending(index).appending("screen")
            } else {
                screen = try Screen(json: document, at: .root)
                pointer = .root
            }
        } catch let error as ModelDecodingError {
            throw Problem(description: "\(source): \(error)")
        }
        if let problem = screen.ruleProblems(at: pointer).first {
            throw Problem(description: "\(source): \(problem)")
        }
        return screen
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
