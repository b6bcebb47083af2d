import ParleyCrypto
import Testing

@Suite(.timeLimit(.minutes(10))) struct BundleSignatureTests {
    let bundle = Array(#"{"channel":"production","flows":[],"schema":"parley.bundle/1","source":{}}"#.utf8)

    @Test func signAndVerify() throws {
        let key = try Ed25519PrivateKey.generate()
        let signature = try BundleSignature.sign(canonicalBytes: bundle, keyId: "ci", with: key)
        #expect(signature.keyId == "ci")
        #expect(signature.digest == SHA256.hash(bundle))
        #expect(signature.digestLabel == "sha256:" + SHA256.hexDigest(bundle))
        try signature.verify(canonicalBytes: bundle, with: key.publicKey)
        try BundleSignature.verify(signature: signature.signature, canonicalBytes: bundle, with: key.publicKey)
        #expect(try BundleSignature.digest(fromLabel: signature.digestLabel) == signature.digest)
    }

    @Test func rejectsAlteredBundleWrongKeyAndTruncatedSignature() throws {
        let key = try Ed25519PrivateKey.generate()
        let signature = try BundleSignature.sign(canonicalBytes: bundle, keyId: "ci", with: key)
        let publicKey = try key.publicKey
        var altered = bundle
        altered[3] ^= 0x01
        #expect(code { try signature.verify(canonicalBytes: altered, with: publicKey) } == "digestMismatch")
        #expect(
            code {
                try BundleSignature.verify(signature: signature.signature, canonicalBytes: altered, with: publicKey)
            }
                == "badSignature")
        let wrong = try Ed25519PrivateKey.generate().publicKey
        #expect(code { try signature.verify(canonicalBytes: bundle, with: wrong) } == "badSignature")
        var truncated = signature
        truncated.signature.removeLast()
        #expect(code { try truncated.verify(canonicalBytes: bundle, with: publicKey) } == "malformedSignature")
    }

    @Test func digestLabelsAreChecked() {
        #expect(throws: CryptoError.self) { try BundleSignature.digest(fromLabel: "md5:00") }
        #expect(throws: CryptoError.self) { try BundleSignature.digest(fromLabel: "sha256:abcd") }
    }

    /// The `BundleSignatureError` code `body` throws, `nil` when it succeeds.
    private func code(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? BundleSignatureError)?.code ?? "unexpected \(error)"
        }
    }
}
