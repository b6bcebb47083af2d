/// A detached Ed25519 signature of a bundle (DESIGN.md "Bundle").
///
/// What is signed: the 32 raw bytes of SHA-256 over the bundle's canonical
/// JSON bytes (ParleyCore's `CanonicalJSON`: sorted keys, no insignificant
/// whitespace). Callers pass canonical bytes, never a file's raw bytes, so
/// re-indenting a bundle keeps its signature valid while any content change
/// breaks it. The same check serves `parley bundle verify` and the server's
/// `Parley-Signature: keyId="…", signature="<base64>"` header.
public struct BundleSignature: Sendable, Hashable {
    /// The only algorithm, as written in signature files.
    public static let algorithm = "ed25519"

    /// Which trusted key signed (the server looks the public key up by this id).
    public var keyId: String
    /// SHA-256 of the canonical bundle bytes.
    public var digest: [UInt8]
    /// The 64-byte Ed25519 signature of ``digest``.
    public var signature: [UInt8]

    /// Wraps the parts of a signature.
    public init(keyId: String, digest: [UInt8], signature: [UInt8]) {
        self.keyId = keyId
        self.digest = digest
        self.signature = signature
    }

    /// SHA-256 of canonical bundle bytes.
    public static func digest(ofCanonicalBytes canonicalBytes: [UInt8]) -> [UInt8] { SHA256.hash(canonicalBytes) }

    /// `sha256:<lowercase hex>`, the printed and stored form of a digest.
    public static func label(_ digest: [UInt8]) -> String { "sha256:" + Hex.encode(digest) }

    /// ``digest`` as `sha256:<hex>`.
    public var digestLabel: String { Self.label(digest) }

    /// Parses `sha256:<hex>` into 32 bytes.
    public static func digest(fromLabel label: String) throws(CryptoError) -> [UInt8] {
        guard label.hasPrefix("sha256:") else {
            throw .invalidEncoding("a digest is written \"sha256:<64 hex digits>\", found \"\(label.prefix(80))\"")
        }
        let bytes = try Hex.decode(String(label.dropFirst("sha256:".count)))
        guard bytes.count == SHA256.byteCount else {
            throw .invalidEncoding("a SHA-256 digest has 32 bytes, found \(bytes.count)")
        }
        return bytes
    }

    /// Signs canonical bundle bytes.
    public static func sign(
        canonicalBytes: [UInt8], keyId: String, with key: Ed25519PrivateKey
    ) throws(CryptoError) -> BundleSignature {
        let digest = digest(ofCanonicalBytes: canonicalBytes)
        return BundleSignature(keyId: keyId, digest: digest, signature: try key.signature(for: digest))
    }

    /// Checks this signature against canonical bundle bytes and a public key.
    ///
    /// Throws a ``BundleSignatureError`` naming the first thing that is wrong:
    /// a malformed signature, a bundle whose digest differs from the signed
    /// one, or a signature that the key does not verify.
    public func verify(canonicalBytes: [UInt8], with publicKey: Ed25519PublicKey) throws(BundleSignatureError) {
        try Self.verify(signature: signature, claimedDigest: digest, canonicalBytes: canonicalBytes, with: publicKey)
    }

    /// Checks a bare signature (as in the `Parley-Signature` header) against
    /// canonical bundle bytes; `claimedDigest` is compared first when given.
    public static func verify(
        signature: [UInt8], claimedDigest: [UInt8]? = nil, canonicalBytes: [UInt8], with publicKey: Ed25519PublicKey
    ) throws(BundleSignatureError) {
        guard signature.count == Ed25519PublicKey.signatureByteCount else {
            throw .malformedSignature(
                "the signature has \(signature.count) bytes; an Ed25519 signature has "
                    + "\(Ed25519PublicKey.signatureByteCount) (truncated or corrupted?)")
        }
        let actual = digest(ofCanonicalBytes: canonicalBytes)
        if let claimedDigest, !ConstantTime.equals(claimedDigest, actual) {
            throw .digestMismatch(
                "the bundle's digest is \(label(actual)) but the signature covers \(label(claimedDigest)): "
                    + "the bundle was changed after signing")
        }
        guard publicKey.isValidSignature(signature, for: actual) else {
            throw .badSignature(
                "the signature does not verify with this public key (wrong key, or a forged or corrupted signature)")
        }
    }
}
