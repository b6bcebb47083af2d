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

    /// The word-at-a-time runs end where the byte loops do: every byte value at every position of
    /// a run long enough for two words, starting anywhere.
    @Test func wordStepsEndWhereTheByteLoopsDo() {
        for position in 0..<20 {
            for byte in UInt8.min...UInt8.max {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
                bytes[position] = byte
                bytes.withUnsafeBufferPointer { buffer in
                    let base = buffer.baseAddress!
                    for start in [0, 3, 8] {
                        var target = start
                        while target < 20, ByteClass.isTarget(base[target]) { target += 1 }
                        #expect(ByteClass.skipTarget(base, from: start, count: 20) == target, "target \(byte)")
                        var value = start
                        while value < 20, ByteClass.isFieldValue(base[value]) { value += 1 }
                        #expect(ByteClass.skipFieldValue(base, from: start, count: 20) == value, "value \(byte)")
                        let found = (start..<20).first { base[$0] == byte }
                        #expect(ByteClass.index(of: byte, in: base, from: start, end: 20) == found, "index \(byte)")
                    }
                }
            }
        }
    }
}
