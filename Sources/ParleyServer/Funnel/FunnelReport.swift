import ParleyCore

/// A flow's funnel (DESIGN.md "Studio") computed from stored sessions: what every replica
/// answers alike. Pure: the store hands it grouped rows, so its arithmetic is tested without a
/// database.
///
/// A session *reached* a step it passed or stopped on; it *passed* the steps of its path. A step
/// is *reachable* for a session that reached it, or that stopped (active or expired) on a step
/// from which the pinned version's graph still leads to it: a session that took the other
/// branch, or completed without it, cannot be a drop-off there (formbricks#1713).
struct FunnelReport: Sendable {
    /// Sessions alike for the funnel: same version, status, current step and passed steps.
    struct Group: Sendable {
        var version: Int
        var status: String
        var step: String
        var passed: [String]
        var count: Int
    }

    /// Rejected answers of one rule on one field of a step, from one core version.
    struct Rejection: Sendable {
        var step: String
        var field: String
        var rule: String
        var core: String
        var count: Int
    }

    struct StepCounts {
        var reachable = 0
        var reached = 0
        var passed = 0
    }

    var flowId: String
    var filters: JSONObject
    var groups: [Group]
    /// The flow of each version the groups name (its graph decides reachability).
    var flows: [Int: Flow]
    var rejections: [Rejection]
    /// Median seconds from arriving on a step to passing it, per step.
    var medians: [String: JSONNumber]

    /// Steps in the newest version's order, then any other step sessions were seen on.
    var stepOrder: [String] {
        var order: [String] = []
        for version in flows.keys.sorted(by: >) {
            for step in flows[version]?.steps ?? [] where !order.contains(step.id) { order.append(step.id) }
        }
        for group in groups {
            for step in group.passed + [group.step] where !order.contains(step) { order.append(step) }
        }
        return order
    }

    /// Per step, the counts defined above.
    func counts() -> [String: StepCounts] {
        var counts: [String: StepCounts] = [:]
        var reachability: [Int: [String: Set<String>]] = [:]
        for group in groups {
            let reach = reachability[group.version] ?? flows[group.version].map(Self.reachability) ?? [:]
            reachability[group.version] = reach
            let stopped = group.status != "completed"
            var reached = Set(group.passed)
            for step in group.passed { counts[step, default: StepCounts()].passed += group.count }
            if stopped { reached.insert(group.step) }
            var reachable = reached
            if stopped { reachable.formUnion(reach[group.step] ?? []) }
            for step in reached { counts[step, default: StepCounts()].reached += group.count }
            for step in reachable { counts[step, default: StepCounts()].reachable += group.count }
        }
        return counts
    }

    /// For every step, the steps some path of transitions leads to from it (itself included).
    static func reachability(_ flow: Flow) -> [String: Set<String>] {
        var successors: [String: [String]] = [:]
        for step in flow.steps { successors[step.id] = step.next.map(\.goto) }
        var result: [String: Set<String>] = [:]
        for step in flow.steps {
            var seen: Set<String> = [step.id]
            var pending = [step.id]
            while let current = pending.popLast() {
                for next in successors[current] ?? [] where seen.insert(next).inserted { pending.append(next) }
            }
            result[step.id] = seen
        }
        return result
    }

    /// `{"flow", "filters", "started", "completed", "expired", "steps": [...]}`.
    var json: JSONValue {
        let counts = counts()
        var started = 0
        var completed = 0
        var expired = 0
        for group in groups {
            started += group.count
            if group.status == "completed" { completed += group.count }
            if group.status == "expired" { expired += group.count }
        }
        let steps: [JSONValue] = stepOrder.map { step in
            let count = counts[step] ?? StepCounts()
            let mine = rejections.filter { $0.step == step }
            var object = JSONObject()
            object["step"] = .string(step)
            object["reachable"] = .number(JSONNumber(count.reachable))
            object["reached"] = .number(JSONNumber(count.reached))
            object["passed"] = .number(JSONNumber(count.passed))
            object["rejected"] = .number(JSONNumber(mine.reduce(0) { $0 + $1.count }))
            object["dropOff"] = Self.dropOff(passed: count.passed, reachable: count.reachable)
            object["medianSeconds"] = medians[step].map(JSONValue.number) ?? .null
            object["rejections"] = .array(
                mine.map {
                    [
                        "field": .string($0.field), "rule": .string($0.rule), "core": .string($0.core),
                        "count": .number(JSONNumber($0.count)),
                    ]
                })
            return .object(object)
        }
        var object = JSONObject()
        object["flow"] = .string(flowId)
        object["filters"] = .object(filters)
        object["started"] = .number(JSONNumber(started))
        object["completed"] = .number(JSONNumber(completed))
        object["expired"] = .number(JSONNumber(expired))
        object["steps"] = .array(steps)
        return .object(object)
    }

    /// `1 - passed / reachable` to four decimals, or null when nothing could reach the step.
    static func dropOff(passed: Int, reachable: Int) -> JSONValue {
        guard reachable > 0 else { return .null }
        let tenThousandths = ((reachable - min(passed, reachable)) * 10_000 + reachable / 2) / reachable
        let text =
            tenThousandths == 10_000
            ? "1" : "0.\(String(repeating: "0", count: 4 - String(tenThousandths).count))\(tenThousandths)"
        return JSONNumber(parsing: text).map(JSONValue.number) ?? .null
    }
}
