import ParleyCrypto
import Testing

@Suite(.timeLimit(.minutes(10))) struct AESGCMTests {
    let key = [UInt8](repeating: 7, count: 32)

    @Test func sealedBoxesOpenWithTheSameKeyAndAssociatedDataOnly() throws {
        let plaintext = Array("C01X00T47".utf8)
        let box = try AESGCM.seal(plaintext, key: key, associatedData: Array("session:documentNumber".utf8))
        #expect(box.count == plaintext.count + 28)
        #expect(try AESGCM.open(box, key: key, associatedData: Array("session:documentNumber".utf8)) == plaintext)
        let other = try AESGCM.seal(plaintext, key: key, associatedData: Array("session:documentNumber".utf8))
        #expect(other != box, "a fresh nonce per seal")
        #expect(throws: CryptoError.self) {
            try AESGCM.open(box, key: key, associatedData: Array("another:documentNumber".utf8))
        }
        #expect(throws: CryptoError.self) {
            try AESGCM.open(
                box, key: [UInt8](repeating: 8, count: 32), associatedData: Array("session:documentNumber".utf8))
        }
        for index in [0, 12, box.count - 1] {
            var altered = box
            altered[index] ^= 1
            #expect(throws: CryptoError.self) {
                try AESGCM.open(altered, key: key, associatedData: Array("session:documentNumber".utf8))
            }
        }
        #expect(throws: CryptoError.self) { try AESGCM.open(Array(box.prefix(20)), key: key, associatedData: []) }
        #expect(throws: CryptoError.self) { try AESGCM.seal(plaintext, key: [1, 2, 3], associatedData: []) }
        #expect(try AESGCM.open(try AESGCM.seal([], key: key, associatedData: []), key: key, associatedData: []) == [])
    }

    /// NIST GCM test vector (gcmEncryptExtIV256, Count 0 with 128-bit plaintext): the box of a
    /// known nonce decrypts to the known plaintext.
    @Test func decryptsAKnownAnswerVector() throws {
        let key = try Hex.decode("31bdadd96698c204aa9ce1448ea94ae1fb4a9a0b3c9d773b51bb1822666b8f22")
        let nonce = try Hex.decode("0d18e06c7c725ac9e362e1ce")
        let plaintext = try Hex.decode("2db5168e932556f8089a0622981d017d")
        let ciphertext = try Hex.decode("fa4362189661d163fcd6a56d8bf0405a")
        let tag = try Hex.decode("d636ac1bbedd5cc3ee727dc2ab4a9489")
        #expect(try AESGCM.open(nonce + ciphertext + tag, key: key, associatedData: []) == plaintext)
    }
}
