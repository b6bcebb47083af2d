import Testing

@testable import ParleyHTTP

/// The SSRF guard's ground truth: which addresses are public (IANA special-purpose registries).
@Suite(.timeLimit(.minutes(10))) struct AddressCategoryTests {
    @Test(arguments: [
        ("8.8.8.8", AddressCategory.global), ("93.184.216.34", .global), ("2606:4700::1111", .global),
        ("10.0.0.1", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("172.32.0.1", .global), ("192.168.1.1", .privateNetwork), ("fd00::1", .privateNetwork),
        ("fc00::1", .privateNetwork), ("fec0::1", .privateNetwork),
        ("127.0.0.1", .loopback), ("127.255.0.9", .loopback), ("::1", .loopback),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal),
        ("100.64.0.1", .sharedNAT), ("100.127.255.255", .sharedNAT), ("100.128.0.1", .global),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("ff02::1", .multicast),
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
        ("192.0.2.1", .documentation), ("198.51.100.7", .documentation), ("203.0.113.9", .documentation),
        ("2001:db8::1", .documentation),
        ("198.18.0.1", .reserved), ("240.0.0.1", .reserved), ("255.255.255.255", .reserved),
        ("192.0.0.8", .reserved), ("2001::1", .reserved), ("100::1", .reserved), ("::2", .reserved),
        // IPv6 forms that reach an IPv4 address are judged as that address.
        ("::ffff:127.0.0.1", .loopback), ("::ffff:10.1.2.3", .privateNetwork), ("::ffff:8.8.8.8", .global),
        ("64:ff9b::a9fe:a9fe", .linkLocal), ("2002:0a00:0001::1", .privateNetwork),
    ])
    func classifies(_ text: String, _ expected: AddressCategory) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressCategory(address) == expected, "\(text)")
    }

    @Test func parsesAndPrintsAddresses() throws {
        #expect(IPAddress("10.0.0.1")?.bytes == [10, 0, 0, 1])
        #expect(IPAddress("::1")?.description == "::1")
        #expect(IPAddress("localhost") == nil && IPAddress("1.2.3") == nil && IPAddress("") == nil)
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }
}
