import Foundation
import ParleyTestSupport
import Testing

/// Snippets in `Tests/DSLCompileFailures/` (outside every target, so the
/// package still builds) are type-checked against the built `ParleyDSL`
/// module. Each starts with `// expected-error: <diagnostic text>` and must
/// fail with it; `Control.swift` (`// expected: compiles`) must compile, which
/// proves the failures are the DSL's doing and not a missing module.
@Suite(.timeLimit(.minutes(10))) struct CompileFailureTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var snippets: [String] {
        let folder = packageRoot.appendingPathComponent("Tests/DSLCompileFailures")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The folder holding `ParleyDSL.swiftmodule` for the running build: beside
    /// the test executable (`.build/<triple>/<config>/Modules`), else `.build/debug/Modules`.
    static var modulesFolder: URL? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates: [URL] = []
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("Modules"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/Modules"))
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("ParleyDSL.swiftmodule").path)
        }
    }

    /// `swiftc` of the toolchain running the tests: on `PATH`, else beside `/opt/swift`.
    static var swiftc: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/opt/swift/usr/bin/swiftc"
    }

    @Test func thereAreSnippets() {
        #expect(Self.snippets.count >= 10)
        #expect(Self.snippets.contains("Control.swift"))
    }

    @Test(arguments: snippets)
    func snippetTypeChecksAsExpected(_ name: String) throws {
        let file = Self.packageRoot.appendingPathComponent("Tests/DSLCompileFailures/\(name)")
        let firstLine =
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        let modules = try #require(Self.modulesFolder, "ParleyDSL.swiftmodule not found; build the package first")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: Self.swiftc)
        // Warnings are errors, as the project builds: a deprecated DSL overload (a Field
        // interpolated into a plain String) is how the DSL refuses what the type system cannot.
        process.arguments = ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path, file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.runAlone()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if firstLine == "// expected: compiles" {
            #expect(process.terminationStatus == 0, "\(name) should compile:\n\(output)")
        } else {
            let prefix = "// expected-error: "
            try #require(firstLine.hasPrefix(prefix), "\(name) must start with \(prefix)")
            let expected = String(firstLine.dropFirst(prefix.count))
            #expect(process.terminationStatus != 0, "\(name) compiled but must not")
            #expect(output.contains(expected), "\(name) failed, but not with \"\(expected)\":\n\(output)")
        }
    }
}
