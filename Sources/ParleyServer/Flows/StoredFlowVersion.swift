public import ParleyCore

/// One immutable flow version as stored (DESIGN.md "Storage"). A class: every cache-hot screen
/// reads one from the live-version cache, and copying a struct of strings, a flow and tables
/// retained and released each of them per request; a reference is one retain.
public final class StoredFlowVersion: Sendable {
    /// The flow's id.
    public let flowId: String
    /// 1, 2, 3… per flow.
    public let version: Int
    /// SHA-256 of the canonical bytes, lowercase hex.
    public let contentHash: String
    /// Token name (API) or `bundle:<key id>`.
    public let author: String
    /// `api` or `bundle`.
    public let source: String
    /// When it was stored (RFC 3339, UTC).
    public let createdAt: String
    /// The decoded flow, in its default locale, with its translations.
    public let flow: Flow
    /// The flow in each of its other locales, resolved once (versions are immutable).
    let translations: [String: Flow]
    /// The fields whose answers are sealed at rest (``Flow/sensitiveFields``), computed once.
    let sensitiveFields: Set<String>
    /// Steps whose screen a session resolves from its path (a `visibleWhen` or a template): their
    /// snapshots are gated per session; every other step's come from the shared screen cache.
    let stepsResolvedPerSession: Set<String>
    /// Each step's position in the flow's steps by id (the first, should two share one): a session
    /// looks its step up on every answer, and a linear search cost more the further the step.
    private let stepPositions: [ScalarKey: Int]

    init(
        flowId: String, version: Int, contentHash: String, author: String, source: String, createdAt: String,
        flow: Flow
    ) {
        self.flowId = flowId
        self.version = version
        self.contentHash = contentHash
        self.author = author
        self.source = source
        self.createdAt = createdAt
        self.flow = flow
        var translations: [String: Flow] = [:]
        for locale in flow.locales.dropFirst() { translations[locale] = flow.localized(to: locale) }
        self.translations = translations
        sensitiveFields = flow.sensitiveFields
        stepsResolvedPerSession = Set(
            flow.steps.filter { SnapshotResolver.needsResolution($0.screen) }.map(\.id))
        var positions: [ScalarKey: Int] = [:]
        for (position, step) in flow.steps.enumerated() where positions[ScalarKey(step.id)] == nil {
            positions[ScalarKey(step.id)] = position
        }
        stepPositions = positions
    }

    /// The step with id `id` of the flow in `locale` (``flow(in:)``): what `Flow.step(_:)` finds,
    /// without searching (a translation keeps the steps in their order; checked all the same).
    func step(_ id: String, in locale: String?) -> Step? {
        // The flow read where it is stored: ``flow(in:)`` returns a copy (a retain of each of
        // its parts, and their releases), and a step is looked up twice an answer.
        if let locale, let translated = translations[locale] { return step(id, of: translated) }
        return step(id, of: flow)
    }

    private func step(_ id: String, of flow: borrowing Flow) -> Step? {
        guard let position = stepPositions[ScalarKey(id)], position < flow.steps.count,
            flow.steps[position].id.isScalarEqual(to: id)
        else { return flow.step(id) }
        return flow.steps[position]
    }

    /// Whether step `id` (of the default-locale flow) has no transitions, nil when there is no such
    /// step: read where the step is stored, not from a copy of it (a retain of each of its parts).
    func isTerminalStep(_ id: String) -> Bool? {
        guard let position = stepPositions[ScalarKey(id)], position < flow.steps.count,
            flow.steps[position].id.isScalarEqual(to: id)
        else { return flow.step(id).map { $0.next.isEmpty } }
        return flow.steps[position].next.isEmpty
    }

    /// The flow as a client in `locale` sees it: every string in that locale (nil or the default
    /// locale: the default's). The default-locale flow keeps its translation table, which cores
    /// never see: gating and the interpreter read only the model's strings.
    public func flow(in locale: String?) -> Flow {
        guard let locale, let translated = translations[locale] else { return flow }
        return translated
    }

    /// `body` over ``flow(in:)`` read where it is stored: returned, the flow was a copy (a
    /// retain of each of its parts, and their releases) for every answer's evaluation.
    func withFlow<Result>(in locale: String?, _ body: (borrowing Flow) -> Result) -> Result {
        if let locale, let translated = translations[locale] { return body(translated) }
        return body(flow)
    }

    /// Summary without content, for lists.
    public var summaryJSON: JSONValue {
        [
            "flow": .string(flowId), "version": .number(JSONNumber(version)), "contentHash": .string(contentHash),
            "author": .string(author), "source": .string(source), "createdAt": .string(createdAt),
        ]
    }

    /// Summary plus the flow document.
    public var fullJSON: JSONValue {
        guard case .object(var object) = summaryJSON else { return summaryJSON }
        object["content"] = flow.json
        return .object(object)
    }
}
