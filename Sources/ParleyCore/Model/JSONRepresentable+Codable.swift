// Embedded Swift (the WebAssembly build) has no Codable; the wire path never needs it.
#if !hasFeature(Embedded)
    /// `Codable` for every model value, bridged through ``JSONValue``.
    ///
    /// With Foundation's coders, non-integer numbers pass through `Double` and may
    /// lose exactness; use ``JSONRepresentable/decode(_:limits:)`` and
    /// ``JSONRepresentable/canonicalBytes`` where exactness matters.
    extension JSONRepresentable {
        public init(from decoder: any Decoder) throws {
            try self.init(json: JSONValue(from: decoder), at: .root)
        }

        public func encode(to encoder: any Encoder) throws {
            try json.encode(to: encoder)
        }
    }

    extension JSONValue: Codable {
        private struct MemberKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        public init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: MemberKey.self) {
                var object = JSONObject()
                for key in container.allKeys {
                    object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
                }
                self = .object(object)
                return
            }
            if var container = try? decoder.unkeyedContainer() {
                var elements: [JSONValue] = []
                while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
                self = .array(elements)
                return
            }
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let integer = try? container.decode(Int.self) {
                self = .number(JSONNumber(integer))
            } else if let double = try? container.decode(Double.self), let number = JSONNumber(parsing: "\(double)") {
                self = .number(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .bool(let flag):
                var container = encoder.singleValueContainer()
                try container.encode(flag)
            case .number(let number):
                var container = encoder.singleValueContainer()
                if let integer = number.intValue {
                    try container.encode(integer)
                } else {
                    try container.encode(Double(number.description) ?? 0)
                }
            case .string(let string):
                var container = encoder.singleValueContainer()
                try container.encode(string)
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try container.encode(element) }
            case .object(let object):
                var container = encoder.container(keyedBy: MemberKey.self)
                for member in object { try container.encode(member.value, forKey: MemberKey(stringValue: member.key)) }
            }
        }
    }
#endif
