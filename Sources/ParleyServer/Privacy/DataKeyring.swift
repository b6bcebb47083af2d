import Foundation
import ParleyCrypto

/// The data keys that encrypt sensitive answers at rest (AES-256-GCM): the current key seals,
/// every key opens, so a rotation can re-encrypt while the service runs. A key's id is the first
/// 8 hex digits of its SHA-256, stored with each value so the right key opens it.
public struct DataKeyring: Sendable {
    /// Why a key file or a sealed value was refused. Never carries key bytes or plaintext.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The id of the key new values are sealed with; nil when no key is configured.
    public let currentId: String?
    private let keys: [String: [UInt8]]

    /// A keyring from raw 32-byte keys, the first sealing.
    public init(current: [UInt8]?, previous: [[UInt8]] = []) {
        var keys: [String: [UInt8]] = [:]
        for key in previous + (current.map { [$0] } ?? []) { keys[Self.id(of: key)] = key }
        self.keys = keys
        currentId = current.map(Self.id(of:))
    }

    /// Reads key files: 32 raw bytes, or their base64 or hex text (what `deploy/run` and
    /// `openssl rand -base64 32` write).
    public static func load(current: String?, previous: [String]) throws(Failure) -> DataKeyring {
        DataKeyring(current: try current.map(readKey), previous: try previous.map(readKey))
    }

    /// The key in a file; refuses anything that is not exactly 256 bits.
    public static func readKey(_ path: String) throws(Failure) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read the data key file \(path)")
        }
        let bytes = [UInt8](data)
        if bytes.count == AESGCM.keyByteCount { return bytes }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let decoded = try? Base64.decode(text), decoded.count == AESGCM.keyByteCount { return decoded }
        if let decoded = try? Hex.decode(text), decoded.count == AESGCM.keyByteCount { return decoded }
        throw Failure(description: "the data key file \(path) must hold 32 bytes (raw, base64 or hex)")
    }

    static func id(of key: [UInt8]) -> String { String(Hex.encode(SHA256.hash(key)).prefix(8)) }

    /// Whether a value sealed under `keyId` can be opened.
    public func canOpen(keyId: String) -> Bool { keys[keyId] != nil }

    /// `"<key id>:<base64 box>"`: `plaintext` sealed with the current key, bound to `context`.
    func seal(_ plaintext: [UInt8], context: [UInt8]) throws(Failure) -> String {
        guard let currentId, let key = keys[currentId] else {
            throw Failure(
                description: "no data key is configured (PARLEY_DATA_KEY_FILE); sensitive answers cannot be stored")
        }
        do {
            return currentId + ":" + Base64.encode(try AESGCM.seal(plaintext, key: key, associatedData: context))
        } catch {
            throw Failure(description: "sealing failed: \(error)")
        }
    }

    /// Opens a value from ``seal(_:context:)``; fails for another context, an unknown key or altered bytes.
    func open(_ sealed: String, context: [UInt8]) throws(Failure) -> [UInt8] {
        let parts = sealed.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let key = keys[String(parts[0])], let box = try? Base64.decode(String(parts[1])) else {
            throw Failure(description: "a sealed value names an unknown data key or is malformed")
        }
        do {
            return try AESGCM.open(box, key: key, associatedData: context)
        } catch {
            throw Failure(
                description: "a sealed value does not open here (moved to another row, altered, or another key)")
        }
    }

    /// The key id of a sealed value, if it is one.
    static func keyId(of sealed: String) -> String? {
        sealed.split(separator: ":", maxSplits: 1).first.map(String.init)
    }
}

extension DataKeyring {
    /// This keyring with `key` sealing and every key it holds still opening (a rotation's view).
    public func rotating(to key: [UInt8]) -> DataKeyring {
        DataKeyring(current: key, previous: Array(keys.values))
    }
}
