/// BCP 47 language tags (RFC 5646 §2.1): the well-formedness check lint applies to a flow's
/// `locales`, and the case-insensitive comparison RFC 4647 matching uses.
public enum LanguageTag {
    /// Whether `tag` is a well-formed language tag: `language[-script][-region]*(-variant)
    /// *(-extension)[-privateuse]` or a private-use tag (`x-…`). The grandfathered irregular tags
    /// of RFC 5646 (e.g. `i-klingon`) are not accepted: no flow needs them.
    public static func isWellFormed(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).map { Substring($0) }
        guard !subtags.isEmpty, subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy(isAlphanumeric) })
        else { return false }
        if subtags[0].lowercased() == "x" { return isPrivateUse(subtags[...]) }
        var rest = subtags[...]
        // language: 2-3 letters (+ up to three 3-letter extlangs), or 4-8 letters.
        guard let language = rest.popFirst(), language.allSatisfy(isLetter), (2...8).contains(language.count) else {
            return false
        }
        if language.count <= 3 {
            var extlangs = 0
            while extlangs < 3, let next = rest.first, next.count == 3, next.allSatisfy(isLetter) {
                rest.removeFirst()
                extlangs += 1
            }
        }
        if let script = rest.first, script.count == 4, script.allSatisfy(isLetter) { rest.removeFirst() }
        if let region = rest.first,
            (region.count == 2 && region.allSatisfy(isLetter)) || (region.count == 3 && region.allSatisfy(isDigit))
        {
            rest.removeFirst()
        }
        var variants: Set<String> = []
        while let variant = rest.first,
            (5...8).contains(variant.count) || (variant.count == 4 && variant.first.map(isDigit) == true)
        {
            guard variants.insert(variant.lowercased()).inserted else { return false }
            rest.removeFirst()
        }
        var singletons: Set<String> = []
        while let singleton = rest.first, singleton.count == 1, singleton.lowercased() != "x" {
            guard singletons.insert(singleton.lowercased()).inserted else { return false }
            rest.removeFirst()
            var parts = 0
            while let part = rest.first, (2...8).contains(part.count) {
                rest.removeFirst()
                parts += 1
            }
            guard parts > 0 else { return false }
        }
        if let first = rest.first, first.lowercased() == "x" { return isPrivateUse(rest) }
        return rest.isEmpty
    }

    /// ASCII case-insensitive equality (language tags are case-insensitive).
    public static func equal(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { lower($0) == lower($1) }
    }

    private static func isPrivateUse(_ subtags: ArraySlice<Substring>) -> Bool {
        subtags.count >= 2 && subtags.dropFirst().allSatisfy { (1...8).contains($0.count) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
    private static func isLetter(_ character: Character) -> Bool {
        character.isASCII && character.isLetter
    }
    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isNumber
    }
    private static func isAlphanumeric(_ character: Character) -> Bool { isLetter(character) || isDigit(character) }
}
