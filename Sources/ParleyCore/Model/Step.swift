/// One step of a flow: a screen and where to go after it validates.
public struct Step: Sendable, Equatable {
    /// Step id, unique in the flow.
    public var id: String
    /// The screen shown for the step.
    public var screen: Screen
    /// Evaluated in order after the step validates; first match wins; empty ends the flow.
    public var next: [Transition]

    /// Creates a step.
    public init(id: String, screen: Screen, next: [Transition] = []) {
        self.id = id
        self.screen = screen
        self.next = next
    }

    /// Decodes a step.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a step")
        id = try reader.string("id")
        guard let screenValue = reader.value("screen") else {
            throw .missing(pointer.appending("screen"), "\"screen\" is required")
        }
        screen = try Screen(json: screenValue, at: pointer.appending("screen"), requireSchema: false)
        var transitions: [Transition] = []
        for (index, element) in (try reader.optionalArray("next") ?? []).enumerated() {
            transitions.append(try Transition(json: element, at: pointer.appending("next").appending(index)))
        }
        next = transitions
    }

    /// The wire JSON.
    public var json: JSONValue {
        ["id": .string(id), "screen": screen.json, "next": .array(next.map { $0.json })]
    }
}
