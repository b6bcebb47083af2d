/// A one-dimensional `text[]` parameter written element by element straight into Postgres's
/// binary array format (issue 27): a batch statement that takes its rows as arrays builds one of
/// these per column, without a `[String]` per column and a second pass to encode it.
///
/// Several arrays can share one buffer (``startNext()``, then ``binds``): a batch's eleven
/// columns were eleven allocations to make and free per batch (~5k instructions an answer).
public struct PostgresTextArray: Sendable {
    private var bytes: [UInt8]
    private var count: Int32 = 0
    /// Where the array being written starts in `bytes` (after the ones ``startNext()`` ended).
    private var start = 0
    /// Where the arrays ended by ``startNext()`` lie in `bytes`, in order (empty: no elements).
    private var earlier: [Range<Int>] = []
    /// Where the element ``startElement()`` started lies in `bytes` (its length's first byte).
    private var elementStart = 0

    /// An empty array, with room for about `capacity` bytes of elements.
    public init(capacity: Int = 64) {
        // ndim 1, no nulls, element type text, length (patched as elements come), lower bound 1.
        // The shared header, copied once into storage of the full size (reserving on a shared
        // buffer copies it): `[UInt8](unsafeUninitializedCapacity:)` was left generic here and
        // looked up the storage's metadata on every call (~650 instructions, a dozen per answer).
        bytes = Self.header
        bytes.reserveCapacity(20 + capacity)
    }

    /// The header of an array with no elements yet.
    private static let header: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 25, 0, 0, 0, 0, 0, 0, 0, 1]

    /// How many elements were appended.
    public var elementCount: Int { Int(count) }

    /// Appends `text` as the next element.
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            // The length byte by byte: four appends cost less than one of a 4-byte buffer.
            Self.append(Int32(truncatingIfNeeded: utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
        counted()
    }

    /// Appends `utf8`, UTF-8 text (never checked here), as the next element: for text the caller
    /// writes on the stack (a session key's hex digits) rather than into a `String` of its own.
    public mutating func append(utf8: UnsafeRawBufferPointer) {
        Self.append(Int32(truncatingIfNeeded: utf8.count), to: &bytes)
        Self.append(utf8, to: &bytes)
        counted()
    }

    /// Appends `value`'s decimal digits as the next element, without a `String` in between.
    public mutating func append(_ value: Int) {
        appendNumber(value, milliseconds: false)
        counted()
    }

    /// Appends `seconds` (since 1970) as text `float8` reads back as exactly the same value:
    /// `"<milliseconds>e-3"` when it is a whole number of milliseconds (what the server keeps),
    /// which needs no `Double` formatting, else its shortest round-trip decimal text.
    public mutating func append(seconds: Double) {
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds / 1000 == seconds, abs(milliseconds) < 1e15 else { return append(String(seconds)) }
        appendNumber(Int(milliseconds), milliseconds: true)
        counted()
    }

    /// Starts an element written in parts (``appendToElement(_:)-(String)``,
    /// ``appendToElement(_:)-(Int)``, ``appendToElement(byte:)``), ended by ``endElement()``: for
    /// an element made of several values (a notification's `"<key>:<rev>,…"`) without a `String`
    /// built for each value and another for their concatenation.
    public mutating func startElement() {
        elementStart = bytes.count
        Self.append(0, to: &bytes)  // the length, patched by endElement()
    }

    /// Appends `text` to the element being written.
    public mutating func appendToElement(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `utf8`, UTF-8 text (never checked here), to the element being written.
    public mutating func appendToElement(utf8: UnsafeRawBufferPointer) {
        Self.append(utf8, to: &bytes)
    }

    /// Appends `value`'s decimal digits to the element being written.
    public mutating func appendToElement(_ value: Int) {
        appendNumber(value, milliseconds: false, length: false)
    }

    /// Appends one byte to the element being written.
    public mutating func appendToElement(byte: UInt8) {
        bytes.append(byte)
    }

    /// Ends the element ``startElement()`` started: its length patched, the array's count raised.
    public mutating func endElement() {
        Self.patch(Int32(truncatingIfNeeded: bytes.count - elementStart - 4), in: &bytes, at: elementStart)
        counted()
    }

    /// Appends the element of `value`'s digits (then `e-3` when `milliseconds`), its length
    /// first unless `length` is false (a part of an element): written backwards into 32 bytes on
    /// the stack, then appended at once. Appended byte by byte (each append checking the buffer's
    /// capacity and uniqueness), an instant cost ~1,100 instructions and a number ~350.
    private mutating func appendNumber(_ value: Int, milliseconds: Bool, length withLength: Bool = true) {
        // At most 4 (length) + 1 (sign) + 19 (digits) + 3 ("e-3") = 27 bytes.
        var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { raw in
            var position = Self.writeDigits(value, milliseconds: milliseconds, endingAt: raw.count, in: raw)
            if withLength {
                let length = raw.count - position
                position -= 4
                raw.storeBytes(
                    of: UInt32(truncatingIfNeeded: length).bigEndian, toByteOffset: position, as: UInt32.self)
            }
            Self.append(UnsafeRawBufferPointer(rebasing: raw[position...]), to: &bytes)
        }
    }

    /// The parameter (the array being written): an empty array when nothing was appended
    /// (`unnest` pads a shorter array with `NULL`s, so a column no row uses can be sent empty).
    public var bind: PostgresBind {
        count > 0 ? PostgresBind(typeOID: PostgresBind.OID.textArray, value: bytes[start...]) : Self.empty
    }

    /// Every array written: those ``startNext()`` ended, then the current one, each a slice of
    /// the one buffer (which lives as long as any of them).
    public var binds: [PostgresBind] {
        var all: [PostgresBind] = []
        all.reserveCapacity(earlier.count + 1)
        for range in earlier {
            all.append(
                range.isEmpty
                    ? Self.empty : PostgresBind(typeOID: PostgresBind.OID.textArray, value: bytes[range]))
        }
        all.append(bind)
        return all
    }

    /// Ends the array being written and starts another after it, in the same buffer.
    public mutating func startNext() {
        // Room for a batch's arrays at once: grown one by one, the ranges were reallocated four
        // times a batch.
        if earlier.isEmpty { earlier.reserveCapacity(Self.expectedArrays) }
        // An empty array is sent as `'{}'` (see ``bind``): its header is left unused.
        earlier.append(count > 0 ? start..<bytes.count : start..<start)
        start = bytes.count
        count = 0
        // The header through its buffer: the generic `append(contentsOf:)` of an array cost
        // ~150 instructions more.
        Self.header.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
    }

    /// The most arrays one buffer usually holds (a session batch with every column group).
    private static let expectedArrays = 24

    /// One more element: the header's length follows at once, so ``bind`` copies nothing.
    private mutating func counted() {
        count += 1
        Self.patch(count, in: &bytes, at: start + 12)
    }

    /// Writes `value`'s digits (then `e-3` when `milliseconds`) so that they end at `end` in
    /// `raw` (at most 23 bytes before it), backwards: returns where they start. Shared with
    /// ``PostgresTextColumns``.
    static func writeDigits(_ value: Int, milliseconds: Bool, endingAt end: Int, in raw: UnsafeMutableRawBufferPointer)
        -> Int
    {
        var position = end
        if milliseconds {
            position -= 3
            raw[position] = UInt8(ascii: "e")
            raw[position + 1] = UInt8(ascii: "-")
            raw[position + 2] = UInt8(ascii: "3")
        }
        var magnitude = value.magnitude
        repeat {
            position -= 1
            raw[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 {
            position -= 1
            raw[position] = UInt8(ascii: "-")
        }
        return position
    }

    /// `'{}'::text[]`: no dimensions.
    public static let empty = PostgresBind(
        typeOID: PostgresBind.OID.textArray, bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 25])

    private static func append(_ value: Int32, to bytes: inout [UInt8]) {
        let bits = UInt32(bitPattern: value)
        bytes.append(UInt8(truncatingIfNeeded: bits >> 24))
        bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
        bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
        bytes.append(UInt8(truncatingIfNeeded: bits))
    }

    /// Appends `raw` through the `UInt8` buffer append the compiler specializes (a raw buffer's
    /// own append stays generic: round 5 measured it at twice the cost).
    private static func append(_ raw: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: raw.assumingMemoryBound(to: UInt8.self))
    }

    /// Writes `value` big-endian at `offset`: one store, where four subscripts each checked the
    /// buffer's uniqueness and bounds.
    private static func patch(_ value: Int32, in bytes: inout [UInt8], at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= bytes.count)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(bitPattern: value).bigEndian, toByteOffset: offset, as: UInt32.self)
        }
    }
}
