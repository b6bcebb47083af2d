/// Reads typed members out of a JSON object, naming the JSON Pointer of
/// whatever is missing or ill-typed. Unknown members are ignored (docs/wire-format.md:
/// forward compatibility).
public struct JSONReader: Sendable {
    /// The object being read.
    public let object: JSONObject
    /// Where the object sits in the document.
    public let pointer: JSONPointer

    /// Wraps a value that must be an object.
    public init(_ value: JSONValue, at pointer: JSONPointer, what: String) throws(ModelDecodingError) {
        guard case .object(let object) = value else {
            throw .wrongType(pointer, "\(what) must be an object, found \(value.kindDescription)")
        }
        self.object = object
        self.pointer = pointer
    }

    /// A member's raw value, if present.
    public func value(_ key: String) -> JSONValue? { object[key] }

    /// A required string member.
    public func string(_ key: String) throws(ModelDecodingError) -> String {
        guard let value = object[key] else { throw .missing(pointer.appending(key), "\"\(key)\" is required") }
        guard case .string(let string) = value else {
            throw .wrongType(pointer.appending(key), "\"\(key)\" must be a string, found \(value.kindDescription)")
        }
        return string
    }

    /// An optional string member (`null` counts as absent).
    public func optionalString(_ key: String) throws(ModelDecodingError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .string(let string) = value else {
            throw .wrongType(pointer.appending(key), "\"\(key)\" must be a string, found \(value.kindDescription)")
        }
        return string
    }

    /// A required array member.
    public func array(_ key: String) throws(ModelDecodingError) -> [JSONValue] {
        guard let value = object[key] else { throw .missing(pointer.appending(key), "\"\(key)\" is required") }
        guard case .array(let elements) = value else {
            throw .wrongType(pointer.appending(key), "\"\(key)\" must be an array, found \(value.kindDescription)")
        }
        return elements
    }

    /// An optional array member (`null` counts as absent).
    public func optionalArray(_ key: String) throws(ModelDecodingError) -> [JSONValue]? {
        guard let value = object[key], !value.isNull else { return nil }
        return try array(key)
    }

    /// An optional array of strings.
    public func optionalStrings(_ key: String) throws(ModelDecodingError) -> [String]? {
        guard let elements = try optionalArray(key) else { return nil }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element else {
                throw .wrongType(
                    pointer.appending(key).appending(index), "must be a string, found \(element.kindDescription)")
            }
            strings.append(string)
        }
        return strings
    }

    /// A required array of strings.
    public func strings(_ key: String) throws(ModelDecodingError) -> [String] {
        guard let strings = try optionalStrings(key) else {
            throw .missing(pointer.appending(key), "\"\(key)\" is required")
        }
        return strings
    }

    /// An optional boolean member.
    public func optionalBool(_ key: String) throws(ModelDecodingError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .bool(let flag) = value else {
            throw .wrongType(pointer.appending(key), "\"\(key)\" must be a boolean, found \(value.kindDescription)")
        }
        return flag
    }

    /// A required exact number; a string holding the number grammar of docs/rules.md is accepted too.
    public func number(_ key: String) throws(ModelDecodingError) -> JSONNumber {
        guard let value = object[key] else { throw .missing(pointer.appending(key), "\"\(key)\" is required") }
        switch value {
        case .number(let number): return number
        case .string(let text):
            guard let number = JSONNumber(parsing: text) else {
                throw .invalidValue(pointer.appending(key), "\"\(key)\" must be a decimal number, found \"\(text)\"")
            }
            return number
        default:
            throw .wrongType(pointer.appending(key), "\"\(key)\" must be a number, found \(value.kindDescription)")
        }
    }

    /// A required non-negative integer that fits in `Int`.
    public func count(_ key: String) throws(ModelDecodingError) -> Int {
        let number = try number(key)
        guard let value = number.intValue, value >= 0 else {
            throw .invalidValue(pointer.appending(key), "\"\(key)\" must be a non-negative integer, found \(number)")
        }
        return value
    }
}
