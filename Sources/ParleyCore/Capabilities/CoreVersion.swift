/// A client core's semantic version, as sent in the `Parley-Core` header
/// (docs/gating.md; SemVer 2.0.0).
///
/// Precedence follows SemVer §11: a pre-release sorts *before* its release
/// (`1.2.0-beta.1 < 1.2.0`), so a 1.2 beta core gets only what was introduced
/// by 1.1 — it may lack what 1.2 finalised. Build metadata (`+…`) is kept for
/// ``description`` but ignored by `==`, `hash` and `<` (SemVer §10).
///
/// `MAJOR.MINOR` is accepted as shorthand for `MAJOR.MINOR.0`, so `--core 1.1`
/// works on the command line; anything else that is not SemVer is an error.
public struct CoreVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Major version.
    public let major: Int
    /// Minor version.
    public let minor: Int
    /// Patch version.
    public let patch: Int
    /// Dot-separated pre-release identifiers (`["beta", "1"]` for `-beta.1`); empty for a release.
    public let preRelease: [String]
    /// Dot-separated build metadata identifiers; never affects precedence or equality.
    public let build: [String]

    /// Longest accepted text, in UTF-8 bytes: a header value is untrusted input.
    public static let maximumLength = 128
    /// Most digits in one numeric component (keeps every number far inside `Int`).
    public static let maximumDigits = 9

    /// The oldest core Parley serves: a missing `Parley-Core` header means this one.
    public static let floor = CoreVersion(1, 0, 0)

    /// Every core version that introduced something, oldest first: the versions
    /// the servability lint checks (docs/gating.md "Publishing checks servability").
    public static let supported: [CoreVersion] = [
        CoreVersion(1, 0, 0), CoreVersion(1, 1, 0), CoreVersion(1, 2, 0), CoreVersion(2, 0, 0),
        CoreVersion(2, 1, 0),
    ]

    /// The newest core version the registry knows.
    public static var newest: CoreVersion { supported[supported.count - 1] }

    /// Creates a version from its parts; numbers must not be negative.
    public init(_ major: Int, _ minor: Int, _ patch: Int = 0, preRelease: [String] = [], build: [String] = []) {
        precondition(major >= 0 && minor >= 0 && patch >= 0, "version numbers are never negative")
        self.major = major
        self.minor = minor
        self.patch = patch
        self.preRelease = preRelease
        self.build = build
    }

    /// Parses `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]` (SemVer 2.0.0 §2, §9, §10)
    /// or the `MAJOR.MINOR` shorthand. No whitespace, no leading `v`.
    public init(parsing text: String) throws(CoreVersionError) {
        guard !text.isEmpty else { throw .empty() }
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(text) }
        var rest = Substring(text)
        var build: [String] = []
        if let plus = rest.firstIndex(of: "+") {
            build = try Self.identifiers(rest[rest.index(after: plus)...], in: text, numeric: false)
            rest = rest[..<plus]
        }
        var preRelease: [String] = []
        if let hyphen = rest.firstIndex(of: "-") {
            preRelease = try Self.identifiers(rest[rest.index(after: hyphen)...], in: text, numeric: true)
            rest = rest[..<hyphen]
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { throw .wrongComponentCount(text) }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.count <= Self.maximumDigits, part.utf8.allSatisfy(Self.isDigit),
                let number = Int(part)
            else { throw .malformedNumber(text, part) }
            guard part.utf8.count == 1 || part.utf8.first != UInt8(ascii: "0") else { throw .leadingZero(text, part) }
            numbers.append(number)
        }
        self.init(numbers[0], numbers[1], numbers.count == 3 ? numbers[2] : 0, preRelease: preRelease, build: build)
    }

    /// Splits and checks pre-release (`numeric`: numeric identifiers must not
    /// have leading zeros, §9) or build identifiers (§10).
    private static func identifiers(_ text: Substring, in input: String, numeric: Bool) throws(CoreVersionError)
        -> [String]
    {
        var result: [String] = []
        for identifier in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !identifier.isEmpty else { throw .emptyIdentifier(input) }
            guard identifier.utf8.allSatisfy(isIdentifierByte) else { throw .invalidCharacter(input, identifier) }
            if numeric, identifier.utf8.count > 1, identifier.utf8.first == UInt8(ascii: "0"),
                identifier.utf8.allSatisfy(isDigit)
            {
                throw .leadingZero(input, identifier)
            }
            result.append(String(identifier))
        }
        return result
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
    }

    /// Whether this is a pre-release (`1.2.0-rc.1`).
    public var isPreRelease: Bool { !preRelease.isEmpty }

    /// The canonical text: `1.2.0`, `1.2.0-rc.1`, `1.2.0-rc.1+build.7`.
    public var description: String {
        var text = "\(major).\(minor).\(patch)"
        if !preRelease.isEmpty { text += "-" + preRelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    public static func == (lhs: CoreVersion, rhs: CoreVersion) -> Bool {
        lhs.major == rhs.major && lhs.minor == rhs.minor && lhs.patch == rhs.patch
            && lhs.preRelease.elementsEqual(rhs.preRelease) { $0.isScalarEqual(to: $1) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        for identifier in preRelease { hasher.combine(ScalarKey(identifier)) }
    }

    /// SemVer 2.0.0 §11 precedence.
    public static func < (lhs: CoreVersion, rhs: CoreVersion) -> Bool {
        if lhs.major != rhs.major { return lhs.major < rhs.major }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch }
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): break
        }
        for (left, right) in zip(lhs.preRelease, rhs.preRelease) where !left.isScalarEqual(to: right) {
            return identifierPrecedes(left, right)
        }
        return lhs.preRelease.count < rhs.preRelease.count
    }

    /// §11.4: numeric identifiers compare numerically and sort before
    /// alphanumeric ones, which compare in ASCII order.
    private static func identifierPrecedes(_ left: String, _ right: String) -> Bool {
        let leftNumeric = left.utf8.allSatisfy(isDigit)
        let rightNumeric = right.utf8.allSatisfy(isDigit)
        switch (leftNumeric, rightNumeric) {
        case (true, true):
            // No leading zeros (checked when parsing), so the longer number is larger.
            if left.utf8.count != right.utf8.count { return left.utf8.count < right.utf8.count }
            return left.scalarPrecedes(right)
        case (true, false): return true
        case (false, true): return false
        case (false, false): return left.scalarPrecedes(right)
        }
    }
}
