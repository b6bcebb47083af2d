/// Writes bytes into scratch space sized beforehand, with no growth or uniqueness check per
/// piece: a response head is assembled here and appended to the output at once. (`Array`'s
/// `append(contentsOf:)` cost about ninety instructions a call, seven calls a response head.)
struct ByteWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    /// Writes into `scratch`, which must hold everything written (checked: overflowing traps).
    init(_ scratch: UnsafeMutableBufferPointer<UInt8>) {
        base = scratch.baseAddress!
        capacity = scratch.count
    }

    /// What has been written.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(count + bytes.count <= capacity, "ByteWriter overflow")
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// `text`'s UTF-8.
    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    mutating func write(_ byte: UInt8) {
        precondition(count < capacity, "ByteWriter overflow")
        base[count] = byte
        count += 1
    }

    /// `value` (not negative) in decimal.
    mutating func writeDecimal(_ value: Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        precondition(count + digits <= capacity, "ByteWriter overflow")
        var remaining = value
        for index in stride(from: count + digits - 1, through: count, by: -1) {
            base[index] = 48 + UInt8(remaining % 10)
            remaining /= 10
        }
        count += digits
    }
}
