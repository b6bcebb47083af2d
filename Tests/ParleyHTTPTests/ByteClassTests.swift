import Testing

@testable import ParleyHTTP

@Suite(.timeLimit(.minutes(10))) struct ByteClassTests {
    /// The bit masks the parser uses are the ABNF tables, byte for byte.
    @Test func masksMatchTheTablesForEveryByte() {
        for byte in UInt8.min...UInt8.max {
            #expect(ByteClass.isToken(byte) == ByteClass.token[Int(byte)], "token \(byte)")
            #expect(ByteClass.isFieldValue(byte) == ByteClass.fieldValue[Int(byte)], "field value \(byte)")
            #expect(ByteClass.isTarget(byte) == ByteClass.target[Int(byte)], "target \(byte)")
        }
    }
}
