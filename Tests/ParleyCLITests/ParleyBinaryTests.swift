import Testing

@Suite(.timeLimit(.minutes(10))) struct ParleyBinaryTests {
    @Test func helpListsEveryCommand() throws {
        let result = try ParleyBinary.run(["--help"])
        #expect(result.status == 0)
        for command in ["lint", "validate", "render", "bundle", "serve", "migrate"] {
            #expect(result.stdout.contains(command), "--help should list \(command)")
        }
    }
}
