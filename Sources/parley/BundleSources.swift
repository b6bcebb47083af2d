import Flows
import Foundation
import ParleyCore

/// The flows that go into a bundle, each with where it came from (for reports).
struct BundleSources {
    /// `Flows (DSL): <id>` or the JSON file's path.
    let origin: String
    /// The flow document.
    let flow: JSONValue

    /// DSL flows in ``ShippedFlows/all`` order, then `<folder>/json/*.json`
    /// sorted by file name (byte order, independent of locale and file system).
    static func collect(flowsFolder: String) throws(BundleFailure) -> [BundleSources] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: flowsFolder, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw .input("the flows folder \(flowsFolder) does not exist")
        }
        var sources = ShippedFlows.all.map { BundleSources(origin: "Flows (DSL): \($0.id)", flow: $0.json) }
        let jsonFolder = (flowsFolder as NSString).appendingPathComponent("json")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: jsonFolder)) ?? []
        let jsonNames = names.filter { $0.hasSuffix(".json") }.sorted {
            Array($0.utf8).lexicographicallyPrecedes($1.utf8)
        }
        for name in jsonNames {
            let path = (jsonFolder as NSString).appendingPathComponent(name)
            sources.append(BundleSources(origin: path, flow: try BundleFiles.readJSON(path)))
        }
        return sources
    }
}
