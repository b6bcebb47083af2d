import ParleyCore

/// The bytes a bundle's digest covers.
enum BundleCanonical {
    /// Canonical JSON of the bundle file's value (not the file's raw bytes:
    /// whitespace and key order do not matter, content does). The file must
    /// be strict JSON and decode as a `parley.bundle/1` document.
    static func bytes(ofBundleAt path: String) throws(BundleFailure) -> [UInt8] {
        let value = try BundleFiles.readJSON(path)
        do {
            _ = try Bundle(json: value, at: .root)
        } catch {
            throw .input("\(path) is not a Parley bundle: \(error)")
        }
        return CanonicalJSON.encode(value)
    }
}
