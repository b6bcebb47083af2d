import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct CapabilityCoreVersionTests {
    @Test(arguments: [
        ("1.2.0", "1.2.0"), ("0.0.0", "0.0.0"), ("1.1", "1.1.0"), ("10.20.30", "10.20.30"),
        ("1.0.0-alpha", "1.0.0-alpha"), ("1.0.0-alpha.1", "1.0.0-alpha.1"), ("1.0.0-0.3.7", "1.0.0-0.3.7"),
        ("1.0.0-x.7.z.92", "1.0.0-x.7.z.92"), ("1.0.0-x-y-z.--", "1.0.0-x-y-z.--"),
        ("1.0.0+20130313144700", "1.0.0+20130313144700"), ("1.0.0-beta+exp.sha.5114f85", "1.0.0-beta+exp.sha.5114f85"),
        ("1.0.0+21AF26D3----117B344092BD", "1.0.0+21AF26D3----117B344092BD"), ("1.0.0+001", "1.0.0+001"),
        ("999999999.0.0", "999999999.0.0"),
    ])
    func parsesSemanticVersions(text: String, canonical: String) throws {
        let version = try CoreVersion(parsing: text)
        #expect(version.description == canonical)
        #expect(try CoreVersion(parsing: version.description) == version)
    }

    @Test(arguments: [
        ("", "empty"), ("1", "wrongComponentCount"), ("1.2.3.4", "wrongComponentCount"), ("v1.0.0", "malformedNumber"),
        (" 1.0.0", "malformedNumber"), ("1.0.0 ", "malformedNumber"), ("1..0", "malformedNumber"),
        ("01.0.0", "leadingZero"), ("1.00.0", "leadingZero"), ("1.0.0-01", "leadingZero"),
        ("1.0.0-", "emptyIdentifier"), ("1.0.0+", "emptyIdentifier"), ("1.0.0-alpha..1", "emptyIdentifier"),
        ("1.0.0-alpha_beta", "invalidCharacter"), ("1.0.0+build!", "invalidCharacter"), ("1.0.0-ä", "invalidCharacter"),
        ("1234567890.0.0", "malformedNumber"), ("١.٠.٠", "malformedNumber"), ("-1.0.0", "wrongComponentCount"),
        ("1.0.0-" + String(repeating: "a", count: 200), "tooLong"),
    ])
    func rejectsMalformedVersionsWithATypedError(text: String, code: String) {
        #expect {
            try CoreVersion(parsing: text)
        } throws: { error in
            (error as? CoreVersionError)?.code == code
        }
    }

    @Test func precedenceFollowsSemVerSection11() throws {
        let ordered = [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
            "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0-0", "1.1.0", "1.10.0", "2.0.0",
        ].map { try! CoreVersion(parsing: $0) }
        for (earlier, later) in zip(ordered, ordered.dropFirst()) {
            #expect(earlier < later, "\(earlier) < \(later)")
            #expect(!(later < earlier))
        }
        #expect(ordered.shuffled().sorted() == ordered)
    }

    @Test func buildMetadataDoesNotChangeIdentityOrOrder() throws {
        let plain = try CoreVersion(parsing: "1.2.0")
        let built = try CoreVersion(parsing: "1.2.0+build.7")
        #expect(plain == built)
        #expect(plain.hashValue == built.hashValue)
        #expect(!(plain < built) && !(built < plain))
        #expect(built.description == "1.2.0+build.7")
    }

    @Test func numericPreReleaseIdentifiersCompareAsNumbersEvenBeyondInt() throws {
        let small = try CoreVersion(parsing: "1.0.0-rc.99999999999999999999")
        let large = try CoreVersion(parsing: "1.0.0-rc.100000000000000000000")
        #expect(small < large)
    }

    @Test func floorAndSupportedVersionsAreTheRegistryVersions() {
        #expect(CoreVersion.floor == CoreVersion(1, 0, 0))
        #expect(CoreVersion.supported.map(\.description) == ["1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0"])
        #expect(CapabilityRegistry.versions == CoreVersion.supported)
        #expect(CoreVersion.newest == CoreVersion(2, 1, 0))
    }
}
