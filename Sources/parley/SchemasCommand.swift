import ArgumentParser
import Foundation
import ParleyCore
import ParleyServer

/// `parley schemas`: the JSON Schemas (2020-12) of the wire documents, the
/// same bytes `GET /schemas/<name>.json` serves, for code generators and
/// validators that work offline (issue 14).
struct SchemasCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schemas",
        abstract: "Print one wire-format JSON Schema, or write all of them to a folder.",
        discussion: "Names: \(WireSchemas.roots.map(\.name).joined(separator: ", ")).")

    @Argument(help: "The schema to print (flow, screen, session, problem, bundle).")
    var name: String?

    @Option(help: "Write every schema as <name>.json, and the API's openapi.json, into this folder instead.")
    var out: String?

    func validate() throws {
        if name == nil, out == nil { throw ValidationError("name a schema or pass --out <folder>") }
        if let name, WireSchemas.document(name) == nil {
            throw ValidationError("unknown schema \"\(name)\"; known: \(WireSchemas.roots.map(\.name))")
        }
    }

    func run() async throws {
        if let name, let document = WireSchemas.document(name) {
            print(CanonicalJSON.string(document))
            return
        }
        guard let out else { return }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            for root in WireSchemas.roots {
                guard let document = WireSchemas.document(root.name) else { continue }
                let path = "\(out)/\(root.name).json"
                try Data(CanonicalJSON.encode(document)).write(to: URL(fileURLWithPath: path))
            }
            // The API document, whose response schemas reference the same definitions (GET /openapi.json).
            let openAPI = OpenAPIDocument.bytes(version: ServiceConfiguration().serviceVersion)
            try Data(openAPI).write(to: URL(fileURLWithPath: "\(out)/openapi.json"))
        } catch {
            FileHandle.standardError.write(Data("parley schemas: cannot write \(out): \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
