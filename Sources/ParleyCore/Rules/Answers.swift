/// Submitted answers: `fieldId → string` (docs/rules.md).
///
/// Keys compare scalar by scalar, never with Swift's canonical-equivalence `==`, so "ä" and
/// "a\u{308}" are different fields. `null` means absent: such a key is dropped, exactly as if it
/// were missing.
///
/// Stored packed (issue 27): every id and value's UTF-8 in one immutable allocation, in scalar
/// order, with a table of where each ends (`AnswersStorage`). A session's merged answers grow by
/// a step's on every answer and the cached state keeps them: as two `[String]` arrays each copy
/// retained every id and value and each release released them one by one (~10k instructions at
/// the 50th step of a path), where packed a change is one allocation and two `memcpy`s, a release
/// one free, and the ids and values of a merged path take less than half the memory. UTF-8's byte
/// order is the scalar order and equal bytes are equal scalars, so the binary search and equality
/// compare bytes. A value is a `String` again when read: with no allocation for up to fifteen
/// bytes (a small string), which most answers and every field id of the shipped flows are.
///
/// `@unchecked Sendable` is safe: the one stored property is a reference to an `AnswersStorage`,
/// which is never written after it is made (every change makes a new one), so values shared
/// between threads only ever read it; `ManagedBuffer`, its base class, opts out of `Sendable`.
public struct Answers: @unchecked Sendable, Equatable {
    /// The entries; nil when there are none (no answers allocate nothing).
    var storage: AnswersStorage?

    /// No answers.
    public init() {
        storage = nil
    }

    /// Answers from a dictionary (a later scalar-equal key cannot occur: keys are scalar-distinct).
    public init(_ values: [String: String]) {
        self.init()
        for (key, value) in values { self[key] = value }
    }

    /// Answers from a JSON object whose members are strings or `null`.
    public init(_ json: JSONValue) throws(AnswersError) {
        guard case .object(let object) = json else {
            throw AnswersError(pointer: .root, message: "answers must be an object, found \(json.kindDescription)")
        }
        // Checked and measured first, then written in one pass into a storage of its final size.
        var byteCount = 0
        var count = 0
        for member in object {
            switch member.value {
            case .null: continue
            case .string(let value):
                byteCount += member.key.utf8.count + value.utf8.count
                count += 1
            default:
                throw AnswersError(
                    pointer: JSONPointer.root.appending(member.key),
                    message:
                        "the answer for \"\(member.key)\" must be a string or null, found \(member.value.kindDescription)"
                )
            }
        }
        guard count > 0 else {
            self.init()
            return
        }
        // An object's members are sorted by key in scalar order and unique already (``JSONObject``):
        // written as they come, with no search for each one's place.
        let storage = AnswersStorage.packed(count: count, byteCount: byteCount) { write in
            for member in object {
                guard case .string(let value) = member.value else { continue }
                Self.withUTF8(member.key) { key in Self.withUTF8(value) { write(key, $0) } }
            }
        }
        self.init(storage: storage)
    }

    /// Answers held by `storage`.
    init(storage: AnswersStorage?) {
        self.storage = storage
    }

    /// The field ids that have a (non-null) value, in Unicode scalar order. Built on each call:
    /// code that walks the fields of large answers reads `count` and `fieldId(at:)` instead.
    public var fieldIds: [String] {
        var fields: [String] = []
        fields.reserveCapacity(count)
        for index in 0..<count { fields.append(fieldId(at: index)) }
        return fields
    }

    /// How many fields have a value.
    var count: Int { storage?.count ?? 0 }

    /// The id of the `index`th field in scalar order.
    func fieldId(at index: Int) -> String {
        storage!.withEntries { Self.string($0.key(index)) }
    }

    /// The value of the `index`th field in scalar order.
    func value(at index: Int) -> String {
        storage!.withEntries { Self.string($0.value(index)) }
    }

    /// The answer for a field; `nil` when absent. Assigning `nil` removes it.
    public subscript(fieldId: String) -> String? {
        get {
            guard let storage else { return nil }
            return Self.withUTF8(fieldId) { key in
                storage.withEntries { entries in
                    let (index, found) = entries.position(of: key)
                    return found ? Self.string(entries.value(index)) : nil
                }
            }
        }
        set {
            Self.withUTF8(fieldId) { key in
                guard let newValue else { return update(key: key, value: nil) }
                Self.withUTF8(newValue) { update(key: key, value: $0) }
            }
        }
    }

    /// Whether the field has a value (without making a `String` of it).
    func hasValue(_ fieldId: String) -> Bool {
        guard let storage else { return false }
        return Self.withUTF8(fieldId) { key in storage.withEntries { $0.position(of: key).found } }
    }

    /// Whether the `index`th field's id is one of `fields` (compared as bytes: no `String` made of it).
    func fieldId(at index: Int, isAmong fields: [String]) -> Bool {
        storage!.withEntries { entries in
            let key = entries.key(index)
            return fields.contains { field in Self.withUTF8(field) { AnswersEntries.compare($0, key) == 0 } }
        }
    }

    /// Sets the answer with id `key` to `value`, or removes it when `value` is nil: a new storage
    /// (`AnswersStorage` is never changed), which a copy of these answers does not see.
    mutating func update(key: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>?) {
        guard let storage else {
            guard let value else { return }
            self.storage = AnswersStorage.make(count: 1, byteCount: key.count + value.count) { ends, bytes in
                AnswersEntries.copy(key, to: bytes)
                AnswersEntries.copy(value, to: bytes + key.count)
                ends[0] = UInt32(key.count)
                ends[1] = UInt32(key.count + value.count)
            }
            return
        }
        self.storage = storage.withEntries { entries in
            let (index, found) = entries.position(of: key)
            guard found || value != nil else { return storage }
            return entries.changed(at: index, replacing: found, key: key, value: value)
        }
    }

    /// Removes the `index`th field.
    mutating func removeEntry(at index: Int) {
        storage = storage!.withEntries { entries in
            entries.changed(at: index, replacing: true, key: entries.key(index), value: nil)
        }
    }

    /// `string`'s UTF-8 where it lies (native and small strings), a native copy's otherwise.
    @inline(__always)
    static func withUTF8<Result>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var native = string
        return native.withUTF8(body)
    }

    /// The string whose UTF-8 is `utf8` (valid: it was a `String`'s). Written into the string's
    /// own bytes: up to fifteen ASCII bytes (most ids and answers) become a small string with no
    /// validation, where `String(decoding:as:)` validated every value read (~150 instructions).
    @inline(__always)
    static func string(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: utf8.count) { buffer in
            guard let from = utf8.baseAddress, let to = buffer.baseAddress else { return 0 }
            UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: utf8.count)
            return utf8.count
        }
    }

    /// The first field (in ``fieldIds`` order) whose answer has more than `maxLength` Unicode
    /// scalars. Scalars are never more than UTF-8 bytes, so only an answer of more bytes than
    /// that is counted, and counted in place: a scalar is each byte that does not continue one.
    public func firstField(longerThan maxLength: Int) -> String? {
        guard let storage else { return nil }
        return storage.withEntries { entries in
            for index in 0..<entries.count {
                let value = entries.value(index)
                guard value.count > maxLength else { continue }
                let scalars = value.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
                if scalars > maxLength { return Self.string(entries.key(index)) }
            }
            return nil
        }
    }

    /// Whether the field's answer is *empty*: absent, or made only of U+0009,
    /// U+000A, U+000D and U+0020 (docs/rules.md: a fixed set, so every platform agrees).
    public func isEmpty(_ fieldId: String) -> Bool {
        guard let storage else { return true }
        return Self.withUTF8(fieldId) { key in
            storage.withEntries { entries in
                let (index, found) = entries.position(of: key)
                return !found || entries.value(index).allSatisfy(Self.isBlank)
            }
        }
    }

    /// Whether a value is *empty* in the sense of docs/rules.md.
    public static func isEmpty(_ value: String?) -> Bool {
        guard let value else { return true }
        return value.utf8.allSatisfy(isBlank)
    }

    /// Whether a byte is one of the four blanks of docs/rules.md.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x20
    }

    /// The answers as a JSON object of strings.
    public var json: JSONValue {
        var object = JSONObject()
        object.reserveCapacity(count)
        for index in 0..<count { object[fieldId(at: index)] = .string(value(at: index)) }
        return .object(object)
    }

    /// Appends ``json``'s canonical bytes (``CanonicalJSON``) without building it: the fields are
    /// in scalar order already, as canonical JSON sorts them, and their bytes are written from
    /// where they lie, the output sized once for them (it grew a few times an answer).
    public func writeCanonicalJSON(into output: inout [UInt8]) {
        guard let storage else {
            output.append(UInt8(ascii: "{"))
            output.append(UInt8(ascii: "}"))
            return
        }
        storage.withEntries { entries in
            // Two quotes around each id and value, a colon and a comma each, the braces; at least
            // doubled, so that a caller appending more after these still grows amortized.
            let needed = output.count + entries.byteCount + 6 * entries.count + 2
            if needed > output.capacity { output.reserveCapacity(Swift.max(needed, 2 * output.capacity)) }
            output.append(UInt8(ascii: "{"))
            for index in 0..<entries.count {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                CanonicalJSON.writeString(utf8: entries.key(index), into: &output)
                output.append(UInt8(ascii: ":"))
                CanonicalJSON.writeString(utf8: entries.value(index), into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    public static func == (lhs: Answers, rhs: Answers) -> Bool {
        // Sorted the same way: equal fields with equal values are equal tables and equal bytes.
        guard let left = lhs.storage, let right = rhs.storage else { return lhs.storage == nil && rhs.storage == nil }
        if left === right { return true }
        return left.withEntries { left in
            right.withEntries { right in
                left.count == right.count && left.byteCount == right.byteCount
                    && (0..<2 * left.count).allSatisfy { left.ends[$0] == right.ends[$0] }
                    && UnsafeBufferPointer(start: left.bytes, count: left.byteCount)
                        .elementsEqual(UnsafeBufferPointer(start: right.bytes, count: right.byteCount))
            }
        }
    }
}

extension Answers: ExpressibleByDictionaryLiteral {
    /// Answers written as a literal, mostly for tests.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }
}
