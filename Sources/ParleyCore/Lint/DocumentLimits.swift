/// Every bound the linter enforces on a document, in one place (STYLE.md,
/// convention 5). Exceeding one is reported as `limitExceeded`.
///
/// The defaults are generous for hand-written flows yet keep every document a
/// client core must parse, gate and validate small and shallow.
public struct DocumentLimits: Sendable, Equatable {
    /// Deepest nesting of nodes in a screen, counting a child or a fallback as
    /// one level below its node (the root is level 1). Default 32.
    public var maximumNodeDepth: Int
    /// Most nodes in one screen, fallbacks included. Default 500.
    public var maximumNodesPerScreen: Int
    /// Most steps in one flow. Default 200.
    public var maximumStepsPerFlow: Int
    /// Most `next` entries of one step. Default 64.
    public var maximumTransitionsPerStep: Int
    /// Most flows in one bundle. Default 1,000.
    public var maximumFlowsPerBundle: Int
    /// Longest string anywhere in the document, member names included, in
    /// Unicode scalars. Default 10,000.
    public var maximumStringLength: Int
    /// Longest identifier (flow, step, screen and node `id`, `fieldId`), in
    /// Unicode scalars. Default 128.
    public var maximumIdentifierLength: Int
    /// Most members in a node's `properties`. Default 64.
    public var maximumPropertiesPerNode: Int
    /// Most validation rules on one input. Default 32.
    public var maximumRulesPerInput: Int
    /// Most `options` of one picker or quick-replies input. Default 500.
    public var maximumOptionsPerInput: Int
    /// Most entries of a value list: `oneOf` `values`, predicate `in`, network
    /// `include`, `all`/`any` operands. Default 500.
    public var maximumValuesPerList: Int
    /// Longest `pattern` rule value, in Unicode scalars (docs/rules.md).
    /// Default 1,000.
    public var maximumPatternLength: Int
    /// Largest compiled size of a `pattern` (I-Regexp program instructions). Matching
    /// costs up to this many steps per answer character, so a server policy bounds it
    /// beyond the syntactic limits of docs/rules.md: `(.?.?…){1000}` is valid I-Regexp but would
    /// take seconds per answer. Default 10,000 (any single `{0,1000}` repetition fits).
    public var maximumPatternInstructions: Int
    /// Deepest nesting of predicates (`all`/`any`/`not`), the outermost being
    /// level 1. Default 16.
    public var maximumPredicateDepth: Int
    /// Longest chain of action `fallback`s, the action itself not counted. Default 8.
    public var maximumActionFallbacks: Int
    /// Deepest nesting of arrays and objects anywhere in the document, the
    /// document itself being level 1. Default 128, the parser's own bound
    /// (``JSONParser/Limits/maximumDepth``), so a clean document always re-parses.
    public var maximumValueDepth: Int
    /// Most problems reported for one document; one more `limitExceeded`
    /// problem says the list was cut short. Keeps a report of a hostile
    /// document small. Default 1,000.
    public var maximumProblems: Int

    /// Creates limits; each default is documented on its property.
    public init(
        maximumNodeDepth: Int = 32, maximumNodesPerScreen: Int = 500, maximumStepsPerFlow: Int = 200,
        maximumTransitionsPerStep: Int = 64, maximumFlowsPerBundle: Int = 1_000, maximumStringLength: Int = 10_000,
        maximumIdentifierLength: Int = 128, maximumPropertiesPerNode: Int = 64, maximumRulesPerInput: Int = 32,
        maximumOptionsPerInput: Int = 500, maximumValuesPerList: Int = 500, maximumPatternLength: Int = 1_000,
        maximumPatternInstructions: Int = 10_000,
        maximumPredicateDepth: Int = 16, maximumActionFallbacks: Int = 8,
        maximumValueDepth: Int = JSONParser.Limits().maximumDepth, maximumProblems: Int = 1_000
    ) {
        self.maximumNodeDepth = maximumNodeDepth
        self.maximumNodesPerScreen = maximumNodesPerScreen
        self.maximumStepsPerFlow = maximumStepsPerFlow
        self.maximumTransitionsPerStep = maximumTransitionsPerStep
        self.maximumFlowsPerBundle = maximumFlowsPerBundle
        self.maximumStringLength = maximumStringLength
        self.maximumIdentifierLength = maximumIdentifierLength
        self.maximumPropertiesPerNode = maximumPropertiesPerNode
        self.maximumRulesPerInput = maximumRulesPerInput
        self.maximumOptionsPerInput = maximumOptionsPerInput
        self.maximumValuesPerList = maximumValuesPerList
        self.maximumPatternLength = maximumPatternLength
        self.maximumPatternInstructions = maximumPatternInstructions
        self.maximumPredicateDepth = maximumPredicateDepth
        self.maximumActionFallbacks = maximumActionFallbacks
        self.maximumValueDepth = maximumValueDepth
        self.maximumProblems = maximumProblems
    }
}
