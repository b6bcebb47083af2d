/// A set of flows published together by CI (docs/wire-format.md "Bundle").
///
/// Its digest is SHA-256 of ``canonicalBytes``; hashing lives outside
/// `ParleyCore`, which does no crypto.
public struct Bundle: Sendable, Equatable {
    /// Release channel, e.g. `production`.
    public var channel: String
    /// Provenance, e.g. `{"commit": "…"}`; kept as given.
    public var source: JSONObject
    /// The flows, in order.
    public var flows: [Flow]

    /// Creates a bundle.
    public init(channel: String, source: JSONObject = JSONObject(), flows: [Flow]) {
        self.channel = channel
        self.source = source
        self.flows = flows
    }
}

extension Bundle: ParleyDocument {
    /// Decodes a bundle document (`schema` required).
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a bundle")
        _ = try SchemaVersion.check(reader.value("schema"), expected: "bundle", at: pointer.appending("schema"))
        channel = try reader.string("channel")
        if let value = reader.value("source"), !value.isNull {
            guard case .object(let object) = value else {
                throw .wrongType(pointer.appending("source"), "\"source\" must be an object")
            }
            source = object
        } else {
            source = JSONObject()
        }
        var decoded: [Flow] = []
        for (index, element) in try reader.array("flows").enumerated() {
            decoded.append(try Flow(json: element, at: pointer.appending("flows").appending(index)))
        }
        flows = decoded
    }

    /// The wire JSON.
    public var json: JSONValue {
        [
            "schema": .string(SchemaVersion.bundle.description), "channel": .string(channel),
            "source": .object(source), "flows": .array(flows.map(\.json)),
        ]
    }
}
