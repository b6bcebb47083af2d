import Foundation
import ParleyCore
import Testing

/// The component vocabulary table in `docs/wire-format.md` is the capability registry
/// (`CapabilityRegistry.markdownTable`), so the documentation cannot drift from what the
/// gate does. `PARLEY_UPDATE_DOCS=1 swift test --filter DocsCapabilityTableTests` rewrites
/// the table from the registry after a change to it.
@Suite(.timeLimit(.minutes(1))) struct DocsCapabilityTableTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/wire-format.md")
    static let begin = "<!-- capability-table:begin"
    static let end = "<!-- capability-table:end -->"

    /// The page's text between the markers (without them), and the page split around it.
    static func generatedPart(of page: String) throws -> (before: String, table: String, after: String) {
        let beginRange = try #require(page.range(of: begin), "docs/wire-format.md lost its \(begin) marker")
        let beginLineEnd = try #require(page[beginRange.upperBound...].firstIndex(of: "\n"))
        let endRange = try #require(page.range(of: end), "docs/wire-format.md lost its \(end) marker")
        let tableStart = page.index(after: beginLineEnd)
        try #require(tableStart <= endRange.lowerBound, "the markers are out of order")
        return (
            String(page[..<tableStart]), String(page[tableStart..<endRange.lowerBound]),
            String(page[endRange.lowerBound...])
        )
    }

    @Test func theDocsTableIsTheRegistry() throws {
        var page = try String(contentsOf: Self.page, encoding: .utf8)
        let expected = CapabilityRegistry.markdownTable + "\n"
        let parts = try Self.generatedPart(of: page)
        if ProcessInfo.processInfo.environment["PARLEY_UPDATE_DOCS"] == "1", parts.table != expected {
            page = parts.before + expected + parts.after
            try page.write(to: Self.page, atomically: true, encoding: .utf8)
        }
        #expect(
            try Self.generatedPart(of: page).table == expected,
            """
            docs/wire-format.md's capability table differs from CapabilityRegistry; \
            run PARLEY_UPDATE_DOCS=1 swift test --filter DocsCapabilityTableTests. The registry says:
            \(expected)
            """)
    }

    @Test func theTableNamesEveryRegistryRowOnce() {
        let table = CapabilityRegistry.markdownTable
        for entry in CapabilityRegistry.entries {
            #expect(table.components(separatedBy: "`\(entry.capability)`").count == 2, "\(entry.capability)")
        }
        for version in CapabilityRegistry.versions {
            #expect(table.contains("| \(version) |"), "\(version)")
        }
    }
}
