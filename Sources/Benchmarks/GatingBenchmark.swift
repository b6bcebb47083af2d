import ArgumentParser
import Glibc
import ParleyCore

/// `parley-bench gating`: Gating a 200-node screen for several core versions.
struct GatingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gating", abstract: "Gating a 200-node screen for several core versions.")

    @Option(help: "Gates per measured run.")
    var iterations = 2000

    @Option(help: "Measured runs per core version (the median is reported).")
    var runs = 7

    @Option(help: "Only this core version (default: every supported one).")
    var core: String?

    @Option(help: "A bundle (parley bundle build): gate every step of every flow in it, cold.")
    var bundle: String?

    func run() async throws {
        if let bundle {
            return try runBundle(
                bundle, cores: try core.map { [try CoreVersion(parsing: $0)] } ?? CoreVersion.supported)
        }
        let screen = Self.screen(nodes: 200)
        print("gating a \(screen.nodes.count)-node screen (target < 50 µs per gate, release build)")
        let reference = Self.measure(iterations) { screen.nodes.count }
        print(
            "reference on this machine: listing the screen's nodes (200 Node copies) \(Self.format(reference)) µs CPU")
        let cores = try core.map { [try CoreVersion(parsing: $0)] } ?? CoreVersion.supported
        for core in cores {
            let gate = Gate(core: core)
            var sink = 0
            for _ in 0..<(iterations / 10) { sink &+= gate.gate(screen).report.count }
            var wall: [Double] = []
            var cpu: [Double] = []
            let clock = ContinuousClock()
            for _ in 0..<runs {
                let startCPU = Self.threadCPUNanoseconds()
                let start = clock.now
                for _ in 0..<iterations { sink &+= gate.gate(screen).report.count }
                let elapsed = clock.now - start
                let nanoseconds =
                    Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
                wall.append(nanoseconds / Double(iterations) / 1000)
                cpu.append(Double(Self.threadCPUNanoseconds() - startCPU) / Double(iterations) / 1000)
            }
            wall.sort()
            cpu.sort()
            let gated = gate.gate(screen)
            print(
                "core \(core): median \(Self.format(wall[runs / 2])) µs/gate wall, \(Self.format(cpu[runs / 2])) µs CPU "
                    + "(min \(Self.format(wall[0])) wall, \(Self.format(cpu[0])) CPU); \(gated.report.count) report entries, "
                    + "\(gated.deferred.count) deferred, upgrade \(gated.needsUpgrade) [\(sink % 10)]")
        }
    }

    /// Median CPU µs per call of `body`.
    static func measure(_ iterations: Int, _ body: () -> Int) -> Double {
        var samples: [Double] = []
        var sink = 0
        for _ in 0..<5 {
            let start = threadCPUNanoseconds()
            for _ in 0..<iterations { sink &+= body() }
            samples.append(Double(threadCPUNanoseconds() - start) / Double(iterations) / 1000)
        }
        return samples.sorted()[2] + Double(sink % 2) * 0
    }

    /// CPU time of this thread: on a busy machine wall time measures the neighbours too.
    static func threadCPUNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// A realistic screen: sections of a heading, an input (alternately a
    /// textField and a datePicker with a textField fallback), a card with a
    /// fallback, and a button whose network action falls back to submit.
    static func screen(nodes: Int) -> Screen {
        var sections: [Node] = []
        var count = 1
        var index = 0
        while count + 6 <= nodes {
            let field = "field\(index)"
            let rules = [Rule(.required), Rule(.email), Rule(.maxLength(80)), Rule(.date(min: "2020-01-01", max: nil))]
            var input = Node(
                type: index % 2 == 0 ? .textField : .datePicker, id: "input\(index)",
                properties: JSONObject([("fieldId", .string(field)), ("label", "Label"), ("keyboard", "email")]),
                validation: rules)
            if index % 2 == 1 {
                input.properties["keyboard"] = nil
                input.fallback = Node(
                    type: .textField, id: "input\(index)-text",
                    properties: JSONObject([("fieldId", .string(field)), ("placeholder", "YYYY-MM-DD")]),
                    validation: [Rule(.required), Rule(.pattern("[0-9]{4}-[0-9]{2}-[0-9]{2}"))])
            }
            let card = Node(
                type: .card, id: "card\(index)", properties: JSONObject([("title", "Offer"), ("subtitle", "Today")]),
                children: [Node(type: .text, id: "card\(index)-body", properties: JSONObject([("text", "Details")]))],
                fallback: Node(type: .text, id: "card\(index)-plain", properties: JSONObject([("text", "Offer")])))
            let network = Action(
                .network(RequestSpec(method: "POST", path: "orders/reorder", include: [field])), fallback: .submit)
            let button = Node(
                type: .button, id: "button\(index)", properties: JSONObject([("title", "Go"), ("style", "primary")]),
                action: network)
            let heading = Node(
                type: .text, id: "heading\(index)", properties: JSONObject([("text", "Section"), ("style", "title")]))
            sections.append(
                Node(
                    type: .vstack, id: "section\(index)", properties: JSONObject([("spacing", "m"), ("size", "fill")]),
                    children: [heading, input, card, button]))
            count += 6
            index += 1
        }
        while count < nodes {
            sections.append(Node(type: .divider, id: "divider\(count)"))
            count += 1
        }
        return Screen(id: "benchmark", root: Node(type: .vstack, id: "root", children: sections))
    }
}
