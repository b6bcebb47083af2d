/// The header fields of a request or response, in order, duplicates kept (RFC 9110 §5.3):
/// nothing a client repeats is silently overwritten.
///
/// A response served from a cache usually carries the same fields every time plus one or two
/// of its own (`X-Request-Id`). ``sharingEncoding()`` freezes the fields into a shared part whose
/// wire bytes are encoded once: adding a field then neither copies the shared fields nor
/// re-encodes them, and the server writes their bytes with one copy.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// Fields frozen by ``sharingEncoding()`` (always before ``added``), with their wire bytes.
    private var shared: HTTPEncodedFields?
    /// The fields after the shared ones, or all of them.
    private var added: [HTTPField]

    /// Creates an empty header list.
    public init() { added = [] }

    /// Creates a header list from name/value pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        added = elements.map { HTTPField(name: $0.0, value: $0.1) }
    }

    /// Creates a header list from fields, in order.
    public init(_ fields: [HTTPField]) { added = fields }

    /// The fields in the order they were received or added.
    public var fields: [HTTPField] {
        guard let shared else { return added }
        return shared.fields + added
    }

    /// These fields, frozen into a shared part whose wire bytes are encoded now: for a
    /// response sent many times (a cached screen), where each copy adds a field or two.
    public func sharingEncoding() -> HTTPHeaders {
        var frozen = HTTPHeaders()
        frozen.shared = HTTPEncodedFields(fields)
        return frozen
    }

    /// The number of field lines.
    public var count: Int { (shared?.fields.count ?? 0) + added.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[HTTPField]> { fields.makeIterator() }

    /// Same fields in the same order (however they are stored).
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool { lhs.fields == rhs.fields }

    /// Hashes the fields in order.
    public func hash(into hasher: inout Hasher) { hasher.combine(fields) }

    /// The first value for `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        if let shared, shared.mayContain(name),
            let field = shared.fields.first(where: { $0.name.isASCIICaseInsensitiveEqual(to: name) })
        {
            return field.value
        }
        return added.first { $0.name.isASCIICaseInsensitiveEqual(to: name) }?.value
    }

    /// Every value for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        for field in shared?.fields ?? [] where field.name.isASCIICaseInsensitiveEqual(to: name) {
            values.append(field.value)
        }
        for field in added where field.name.isASCIICaseInsensitiveEqual(to: name) { values.append(field.value) }
        return values
    }

    /// How many fields are called `name` (case-insensitive): a check for a repeated field that
    /// builds no array.
    public func occurrences(of name: String) -> Int {
        var count = 0
        for field in shared?.fields ?? [] where field.name.isASCIICaseInsensitiveEqual(to: name) { count += 1 }
        for field in added where field.name.isASCIICaseInsensitiveEqual(to: name) { count += 1 }
        return count
    }

    /// The first value for `name` and whether the field appears exactly once: one pass for a
    /// field that must not repeat.
    public func single(_ name: String) -> (value: String?, repeated: Bool) {
        var value: String?
        var repeated = false
        func visit(_ field: HTTPField) {
            guard field.name.isASCIICaseInsensitiveEqual(to: name) else { return }
            if value == nil { value = field.value } else { repeated = true }
        }
        if let shared, shared.mayContain(name) { for field in shared.fields { visit(field) } }
        for field in added { visit(field) }
        return (value, repeated)
    }

    /// Whether any field is called `name` (case-insensitive).
    public func contains(_ name: String) -> Bool {
        if let shared, shared.mayContain(name),
            shared.fields.contains(where: { $0.name.isASCIICaseInsensitiveEqual(to: name) })
        {
            return true
        }
        return added.contains { $0.name.isASCIICaseInsensitiveEqual(to: name) }
    }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) {
        added.append(HTTPField(name: name, value: value))
    }

    /// Makes room for `count` fields after the shared ones, so adding that many allocates once:
    /// for a response whose fields are added in steps (a snapshot's ETag, then its request id).
    public mutating func reserveCapacity(_ count: Int) {
        added.reserveCapacity(count)
    }

    /// Replaces every field called `name` with a single one, at the end.
    public mutating func set(_ name: String, _ value: String) {
        // Removing copies shared storage even when nothing matches; most calls add a new name.
        if contains(name) { remove(name) }
        add(name, value)
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        if let shared, shared.fields.contains(where: { $0.name.isASCIICaseInsensitiveEqual(to: name) }) {
            // A shared field goes: the rest are no longer one encoded block.
            added = shared.fields + added
            self.shared = nil
        }
        added.removeAll { $0.name.isASCIICaseInsensitiveEqual(to: name) }
    }

    /// The wire bytes of the shared fields (framing fields left out) and the fields after them.
    var encodingParts: (encoded: [UInt8]?, rest: [HTTPField]) { (shared?.bytes, added) }

    /// The comma-separated list elements of every `name` field, trimmed, empty elements kept
    /// so callers can reject them (RFC 9110 §5.6.1).
    func listElements(for name: String) -> [Substring] {
        var elements: [Substring] = []
        for value in values(for: name) {
            for element in value.split(separator: ",", omittingEmptySubsequences: false) {
                elements.append(element.trimmingOWS())
            }
        }
        return elements
    }
}

/// Fields frozen with their `name: value` CRLF lines, encoded once (``ResponseEncoder`` rules:
/// the framing fields the server writes itself are left out of the bytes).
final class HTTPEncodedFields: Sendable {
    let fields: [HTTPField]
    let bytes: [UInt8]
    /// One bit per field name, chosen by its length and its first and last letters (case
    /// folded): a lookup of a name whose bit is clear (adding `X-Request-Id` to a cached
    /// screen's fields) skips the fields unread. Length alone let `Content-Type` through for
    /// `X-Request-Id`: 340 instructions a screen spent comparing names. The mix is picked so
    /// that `X-Request-Id` shares its bit with none of the fields the server sets.
    let nameBits: UInt64

    /// Whether some field may be called `name` (false: none is).
    func mayContain(_ name: String) -> Bool { nameBits & Self.bit(for: name) != 0 }

    /// The bit of `name` in ``nameBits``.
    static func bit(for name: String) -> UInt64 {
        // In place (native and small strings are contiguous): `utf8.last` alone cost 76 instructions.
        let mixed = name.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard let first = bytes.first, let last = bytes.last else { return nil }
            return bytes.count &+ 3 &* Int(ByteClass.lowercased(first)) &+ Int(ByteClass.lowercased(last))
        }
        switch mixed {
        case .some(.some(let mixed)): return 1 << UInt64(mixed & 63)
        case .some(.none): return 0  // no field has an empty name
        case .none: return ~0  // not contiguous (a bridged string): may be any field
        }
    }

    init(_ fields: [HTTPField]) {
        self.fields = fields
        nameBits = fields.reduce(0) { $0 | Self.bit(for: $1.name) }
        var bytes: [UInt8] = []
        HTTPFieldEncoding.appendFields(fields, to: &bytes)
        self.bytes = bytes
    }
}

extension Substring {
    /// The substring without leading or trailing SP/HTAB (RFC 9110 §5.6.3 OWS).
    func trimmingOWS() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
