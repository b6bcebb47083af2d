import Foundation

/// `parley serve --core-module PATH`: parley-core.wasm (docs/webassembly.md), read once at start
/// and served from memory, so a file changed or removed later cannot change what a running server
/// serves. A file that is missing or not a WebAssembly module stops the start with a message.
struct CoreModuleFile: Error, CustomStringConvertible {
    /// Why the file cannot be served.
    let description: String

    /// The largest module accepted (the build fails above 1 MB; this leaves room for a debug build).
    static let maxBytes = 16 << 20

    /// The module's bytes: WebAssembly's magic number, at most ``maxBytes``.
    static func read(_ path: String) throws(CoreModuleFile) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CoreModuleFile(
                description: "--core-module \(path): no such readable file (build it with deploy/wasm-core)")
        }
        guard data.count <= maxBytes else {
            throw CoreModuleFile(description: "--core-module \(path): larger than \(maxBytes >> 20) MiB")
        }
        guard data.starts(with: [0x00, 0x61, 0x73, 0x6D]) else {
            throw CoreModuleFile(description: "--core-module \(path): not a WebAssembly module")
        }
        return Array(data)
    }
}
