/// The header fields of a request or response, in order, duplicates kept (RFC 9110 §5.3):
/// nothing a client repeats is silently overwritten.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were received or added.
    public private(set) var fields: [HTTPField]

    /// Creates an empty header list.
    public init() { fields = [] }

    /// Creates a header list from name/value pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HTTPField(name: $0.0, value: $0.1) }
    }

    /// Creates a header list from fields, in order.
    public init(_ fields: [HTTPField]) { self.fields = fields }

    /// The number of field lines.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[HTTPField]> { fields.makeIterator() }

    /// The first value for `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        fields.first { $0.name.isASCIICaseInsensitiveEqual(to: name) }?.value
    }

    /// Every value for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        for field in fields where field.name.isASCIICaseInsensitiveEqual(to: name) { values.append(field.value) }
        return values
    }

    /// How many fields are called `name` (case-insensitive): a check for a repeated field that
    /// builds no array.
    public func occurrences(of name: String) -> Int {
        var count = 0
        for field in fields where field.name.isASCIICaseInsensitiveEqual(to: name) { count += 1 }
        return count
    }

    /// Whether any field is called `name` (case-insensitive).
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.isASCIICaseInsensitiveEqual(to: name) }
    }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(HTTPField(name: name, value: value))
    }

    /// Replaces every field called `name` with a single one, at the end.
    public mutating func set(_ name: String, _ value: String) {
        // Removing copies shared storage even when nothing matches; most calls add a new name.
        if contains(name) { remove(name) }
        add(name, value)
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.isASCIICaseInsensitiveEqual(to: name) }
    }

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

extension Substring {
    /// The substring without leading or trailing SP/HTAB (RFC 9110 §5.6.3 OWS).
    func trimmingOWS() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
