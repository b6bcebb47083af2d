/// The result of ``Servability/analyze(_:)``: one row per step, one column per core.
public struct ServabilityMatrix: Sendable, Equatable {
    /// The core versions checked (columns), oldest first.
    public let cores: [CoreVersion]
    /// The step ids (rows), in flow order.
    public let steps: [String]
    /// `rows[step][core]`.
    public let rows: [[Servability.Status]]
    /// Lint errors: `unservableStep` (pointer to the step) when a core cannot
    /// render a step and the flow has no `upgrade` screen; `unservableUpgradeScreen`
    /// (pointer `/upgrade`) when a checked core cannot render the `upgrade` screen.
    public let problems: [LintProblem]

    /// Creates a matrix.
    public init(cores: [CoreVersion], steps: [String], rows: [[Servability.Status]], problems: [LintProblem]) {
        self.cores = cores
        self.steps = steps
        self.rows = rows
        self.problems = problems
    }

    /// How `core` is served `step`, or `nil` when either is not in the matrix.
    public func status(step: String, core: CoreVersion) -> Servability.Status? {
        guard let row = steps.firstIndex(where: { $0.isScalarEqual(to: step) }),
            let column = cores.firstIndex(of: core)
        else { return nil }
        return rows[row][column]
    }

    /// Wire form for `POST /v1/flows/lint`:
    /// `{"cores": ["1.0.0", …], "steps": [{"id": "…", "servability": {"1.0.0": "native", …}}]}`.
    public var json: JSONValue {
        let stepValues: [JSONValue] = zip(steps, rows).map { step, row in
            var byCore = JSONObject()
            for (core, status) in zip(cores, row) { byCore[core.description] = .string(status.rawValue) }
            return ["id": .string(step), "servability": .object(byCore)]
        }
        return ["cores": .array(cores.map { .string($0.description) }), "steps": .array(stepValues)]
    }

    /// The matrix as a plain-text table for `parley lint`, one line per step:
    ///
    ///     step      1.0.0          1.1.0          1.2.0   2.0.0
    ///     country   upgrade        via fallbacks  native  native
    public var text: String {
        let header = ["step"] + cores.map { $0.description }
        let body = zip(steps, rows).map { step, row in [step] + row.map(Self.label) }
        let table = [header] + body
        var widths = Array(repeating: 0, count: header.count)
        for line in table {
            for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return table.map { line in
            var text = ""
            for (column, cell) in line.enumerated() {
                let isLast = column == line.count - 1
                text += isLast ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            return text
        }.joined(separator: "\n") + "\n"
    }

    private static func label(_ status: Servability.Status) -> String {
        switch status {
        case .native: return "native"
        case .viaFallbacks: return "via fallbacks"
        case .upgrade: return "upgrade"
        case .notServable: return "NOT SERVABLE"
        }
    }
}
