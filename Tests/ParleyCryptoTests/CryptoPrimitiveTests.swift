import ParleyCrypto
import Testing

@Suite(.timeLimit(.minutes(10))) struct CryptoPrimitiveTests {
    /// FIPS 180-2 appendix B vectors.
    @Test func sha256KnownAnswers() {
        #expect(Hex.encode(SHA256.hash("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// RFC 8032 §7.1, TEST 2 (one-byte message 0x72).
    @Test func ed25519KnownAnswer() throws {
        let seed = try Hex.decode("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
        let key = try Ed25519PrivateKey(rawRepresentation: seed)
        let expectedPublic = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"
        #expect(Hex.encode(try key.publicKey.rawRepresentation) == expectedPublic)
        let signature = try key.signature(for: [0x72])
        #expect(
            Hex.encode(signature)
                == "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")
        #expect(try key.publicKey.isValidSignature(signature, for: [0x72]))
        #expect(try !key.publicKey.isValidSignature(signature, for: [0x73]))
    }

    @Test func pemRoundTripAndWrongKey() throws {
        let key = try Ed25519PrivateKey.generate()
        let pem = try key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let reread = try Ed25519PrivateKey(pem: pem)
        #expect(reread.rawRepresentation == key.rawRepresentation)
        let publicPEM = try key.publicKey.pemRepresentation
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(try Ed25519PublicKey(pem: publicPEM) == key.publicKey)
        #expect(try Ed25519PublicKey(base64: Base64.encode(key.publicKey.rawRepresentation)) == key.publicKey)
        #expect("\(key)" == "Ed25519PrivateKey(redacted)")
        #expect(String(reflecting: key) == "Ed25519PrivateKey(redacted)")
        let other = try Ed25519PrivateKey.generate()
        #expect(other.rawRepresentation != key.rawRepresentation)
        let signature = try key.signature(for: Array("hello".utf8))
        #expect(try !other.publicKey.isValidSignature(signature, for: Array("hello".utf8)))
        #expect(try !key.publicKey.isValidSignature(Array(signature.prefix(63)), for: Array("hello".utf8)))
    }

    @Test func badKeysAreTypedErrors() {
        #expect(throws: CryptoError.self) { try Ed25519PrivateKey(pem: "not a key") }
        #expect(throws: CryptoError.self) {
            try Ed25519PublicKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        }
        #expect(throws: CryptoError.self) { try Ed25519PublicKey(rawRepresentation: [1, 2, 3]) }
        do {
            _ = try Ed25519PrivateKey(pem: "junk")
            Issue.record("junk was accepted")
        } catch {
            #expect(error.code == "invalidKey")
        }
    }

    @Test func hexAndBase64() throws {
        #expect(Hex.encode([0x00, 0xAB, 0xFF]) == "00abff")
        #expect(try Hex.decode("00ABff") == [0x00, 0xAB, 0xFF])
        #expect(throws: CryptoError.self) { try Hex.decode("abc") }
        #expect(throws: CryptoError.self) { try Hex.decode("zz") }
        for (bytes, text) in [
            ([UInt8](), ""), ([0x66], "Zg=="), ([0x66, 0x6F], "Zm8="), ([0x66, 0x6F, 0x6F], "Zm9v"),
        ] {
            #expect(Base64.encode(bytes) == text)
            #expect(try Base64.decode(text) == bytes)
        }
        for bad in ["Zg=", "Z===", "Zg==\n", "Zm9v!A==", " Zm8="] {
            #expect(throws: CryptoError.self, "\(bad) should be refused") { try Base64.decode(bad) }
        }
    }

    @Test func constantTimeEquals() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([], []))
    }
}
