import Foundation
import ParleyCore

extension CoreCasesCommand {
    /// The expression vectors (Tests/Conformance/README.md "Expression vectors") as calls: value,
    /// predicate and template vectors through `harness` (the request `parley validate --harness`
    /// reads), step vectors through `evaluate` (the call the studio and web clients use), each with
    /// the vector's own expectation.
    static func expressionCases(
        _ directory: URL, add: (String, String, String, [String?], JSONValue?) -> Void
    ) throws {
        for file in try files(directory) {
            for group in try read(file).arrayValue ?? [] {
                let name = "expressions/\(file.lastPathComponent): \(group["description"]?.stringValue ?? "")"
                for test in group["tests"]?.arrayValue ?? [] {
                    let title = test["description"]?.stringValue ?? ""
                    if let flow = group["flow"] {
                        var options = JSONObject()
                        if let mode = test["mode"] { options["mode"] = mode }
                        if let locale = test["locale"] { options["locale"] = locale }
                        var vector = JSONObject()
                        for key in ["cleared", "hidden", "valid", "errors", "deferred", "next", "computed", "texts"] {
                            vector[key] = test[key] ?? .null
                        }
                        add(
                            name, title, "evaluate",
                            [
                                CanonicalJSON.string(flow), test["step"]?.stringValue,
                                CanonicalJSON.string(test["answers"] ?? .null),
                                test["context"].map { CanonicalJSON.string($0) },
                                CanonicalJSON.string(.object(options)),
                            ], .object(vector))
                        // The studio's offline preview of the same step (the server's body, byte for byte).
                        var preview = JSONObject()
                        preview["flow"] = flow
                        preview["step"] = test["step"] ?? .null
                        preview["answers"] = test["answers"] ?? .object(JSONObject())
                        if let context = test["context"] { preview["context"] = context }
                        if let locale = test["locale"] { preview["locale"] = locale }
                        add(name, title + " (preview)", "preview", [CanonicalJSON.string(.object(preview))], nil)
                        continue
                    }
                    var request = JSONObject()
                    var vector = JSONObject()
                    for (form, outcome) in [("expression", "value"), ("predicate", "holds"), ("template", "text")] {
                        guard let value = test[form] else { continue }
                        request[form] = value
                        vector[outcome] = test[outcome] ?? .null
                    }
                    if let computed = group["computed"] { request["computed"] = computed }
                    request["answers"] = test["answers"] ?? group["answers"] ?? .object(JSONObject())
                    add(name, title, "harness", [CanonicalJSON.string(.object(request))], .object(vector))
                }
            }
        }
    }
}
