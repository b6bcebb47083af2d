import Foundation
import ParleyCore

/// File access for `parley bundle` and `parley keygen`: every failure becomes
/// a ``BundleFailure`` naming the path.
enum BundleFiles {
    /// The bytes of a file.
    static func read(_ path: String) throws(BundleFailure) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input("cannot read \(path): no such file or not readable")
        }
        return [UInt8](data)
    }

    /// A file's text (UTF-8).
    static func readText(_ path: String) throws(BundleFailure) -> String {
        String(decoding: try read(path), as: UTF8.self)
    }

    /// A file's strict JSON.
    static func readJSON(_ path: String) throws(BundleFailure) -> JSONValue {
        let bytes = try read(path)
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .input("\(path) is not valid JSON: \(error)")
        }
    }

    /// Writes a file atomically (readable by others: bundles, signatures, public keys).
    static func write(_ bytes: [UInt8], to path: String) throws(BundleFailure) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .input("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Creates a file only its owner can read (mode 0600 from the start, so a
    /// private key is never briefly world-readable); refuses to overwrite.
    static func writePrivate(_ bytes: [UInt8], to path: String) throws(BundleFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw .input("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { posixWrite(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw .input("cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}

/// POSIX `write(2)`, named apart from ``BundleFiles/write(_:to:)``.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
