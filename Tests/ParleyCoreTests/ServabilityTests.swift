import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct ServabilityTests {
    static func flow(upgrade: Bool) throws -> Flow {
        let upgradeScreen =
            upgrade
            ? #", "upgrade": {"id": "up", "root": {"type": "text", "id": "up", "properties": {"text": "Update"}}}"# : ""
        return try Flow.decode(
            """
            {"schema": "parley.flow/1", "id": "f", "start": "plain", "steps": [
              {"id": "plain", "screen": {"id": "plain", "root": {"type": "vstack", "id": "root", "children": [
                {"type": "textField", "id": "a", "properties": {"fieldId": "a"}},
                {"type": "button", "id": "go", "properties": {"title": "Go", "action": {"type": "submit"}}}]}}},
              {"id": "fancy", "screen": {"id": "fancy", "root": {"type": "vstack", "id": "root", "children": [
                {"type": "card", "id": "c", "properties": {"title": "T"}, "fallback": {"type": "text", "id": "c2", "properties": {"text": "T"}}},
                {"type": "button", "id": "go", "properties": {"title": "Go", "action": {"type": "submit"}}}]}}},
              {"id": "dates", "screen": {"id": "dates", "root": {"type": "vstack", "id": "root", "children": [
                {"type": "datePicker", "id": "d", "properties": {"fieldId": "d"}},
                {"type": "button", "id": "go", "properties": {"title": "Go", "action": {"type": "submit"}}}]}}}]
            \(upgradeScreen)}
            """)
    }

    @Test func theMatrixSaysHowEveryCoreIsServedEveryStep() throws {
        let matrix = Servability().analyze(try Self.flow(upgrade: true))
        #expect(matrix.cores == CoreVersion.supported)
        #expect(matrix.steps == ["plain", "fancy", "dates"])
        #expect(matrix.rows[0] == [.native, .native, .native, .native, .native])
        #expect(matrix.rows[1] == [.viaFallbacks, .native, .native, .native, .native])
        #expect(matrix.rows[2] == [.upgrade, .upgrade, .native, .native, .native])
        #expect(matrix.status(step: "dates", core: CoreVersion(1, 1, 0)) == .upgrade)
        #expect(matrix.status(step: "nope", core: CoreVersion(1, 1, 0)) == nil)
        #expect(matrix.problems.isEmpty)
    }

    @Test func aStepSomeCoreCannotRenderWithoutAnUpgradeScreenIsAnError() throws {
        let matrix = Servability().analyze(try Self.flow(upgrade: false))
        #expect(matrix.rows[2] == [.notServable, .notServable, .native, .native, .native])
        #expect(matrix.problems.count == 1)
        let problem = try #require(matrix.problems.first)
        #expect(problem.code == "unservableStep")
        #expect(problem.pointer.description == "/steps/2")
        #expect(problem.message.contains("1.0.0, 1.1.0"))
        #expect(problem.message.contains("datePicker"))
    }

    @Test func theFloorLimitsWhichCoresAreChecked() throws {
        let matrix = Servability(floor: CoreVersion(1, 2, 0)).analyze(try Self.flow(upgrade: false))
        #expect(matrix.cores.map(\.description) == ["1.2.0", "2.0.0", "2.1.0"])
        #expect(matrix.problems.isEmpty)
        #expect(matrix.rows.allSatisfy { $0.allSatisfy { $0 == .native } })
    }

    @Test func anUpgradeScreenOldCoresCannotRenderIsAnError() throws {
        var flow = try Self.flow(upgrade: true)
        flow.upgrade = Screen(id: "up", root: Node(type: .carousel, id: "up", children: [Node(type: .text, id: "t")]))
        let problems = Servability().analyze(flow).problems
        #expect(problems.map(\.code) == ["unservableUpgradeScreen"])
        #expect(problems.first?.pointer.description == "/upgrade")
        #expect(problems.first?.message.contains("1.0.0, 1.1.0, 1.2.0") == true)
    }

    @Test func theTextTableHasOneLinePerStep() throws {
        let text = Servability().analyze(try Self.flow(upgrade: false)).text
        #expect(
            text == """
                step   1.0.0          1.1.0         1.2.0   2.0.0   2.1.0
                plain  native         native        native  native  native
                fancy  via fallbacks  native        native  native  native
                dates  NOT SERVABLE   NOT SERVABLE  native  native  native

                """)
    }

    @Test func theJSONFormListsStatusesByCore() throws {
        let json = Servability(floor: CoreVersion(1, 1, 0)).analyze(try Self.flow(upgrade: true)).json
        #expect(json["cores"] == ["1.1.0", "1.2.0", "2.0.0", "2.1.0"])
        #expect(
            json["steps"]?.arrayValue?[2] == [
                "id": "dates",
                "servability": [
                    "1.1.0": "upgrade", "1.2.0": "native", "2.0.0": "native", "2.1.0": "native",
                ],
            ])
    }
}
