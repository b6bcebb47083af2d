/// Unicode general categories as bits, for I-Regexp's `\p{…}`/`\P{…}`
/// (RFC 9485 §2, `IsCategory`). Properties come from the standard library's
/// Unicode tables, so every Swift platform agrees.
enum GeneralCategoryMask {
    /// The two-letter category names, in bit order.
    static let names = [
        "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po",
        "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn",
    ]

    /// The mask for an `IsCategory` name (`L`, `Lu`, `Nd`, `P`…); `nil` when RFC 9485 has no such name.
    static func mask(named name: String) -> UInt32? {
        let scalars = Array(name.unicodeScalars)
        // RFC 9485 lists every two-letter category except `Cs` (surrogates never occur in strings).
        guard scalars.count == 1 || scalars.count == 2, name != "Cs" else { return nil }
        var mask: UInt32 = 0
        for (index, candidate) in names.enumerated() {
            let candidateScalars = Array(candidate.unicodeScalars)
            if candidateScalars[0] == scalars[0], scalars.count == 1 || candidateScalars[1] == scalars[1] {
                mask |= 1 << UInt32(index)
            }
        }
        return mask == 0 ? nil : mask
    }

    /// Category bits of U+0000…U+007F, computed once: compiling `\p{…}` then costs no property lookups.
    static let asciiBits: [UInt32] = (0..<128).map { bit(of: Unicode.Scalar(UInt8($0))) }

    /// The bit of a scalar's general category.
    static func bit(of scalar: Unicode.Scalar) -> UInt32 {
        1 << index(of: scalar.properties.generalCategory)
    }

    private static func index(of category: Unicode.GeneralCategory) -> UInt32 {
        switch category {
        case .uppercaseLetter: return 0
        case .lowercaseLetter: return 1
        case .titlecaseLetter: return 2
        case .modifierLetter: return 3
        case .otherLetter: return 4
        case .nonspacingMark: return 5
        case .spacingMark: return 6
        case .enclosingMark: return 7
        case .decimalNumber: return 8
        case .letterNumber: return 9
        case .otherNumber: return 10
        case .connectorPunctuation: return 11
        case .dashPunctuation: return 12
        case .openPunctuation: return 13
        case .closePunctuation: return 14
        case .initialPunctuation: return 15
        case .finalPunctuation: return 16
        case .otherPunctuation: return 17
        case .mathSymbol: return 18
        case .currencySymbol: return 19
        case .modifierSymbol: return 20
        case .otherSymbol: return 21
        case .spaceSeparator: return 22
        case .lineSeparator: return 23
        case .paragraphSeparator: return 24
        case .control: return 25
        case .format: return 26
        case .surrogate: return 27
        case .privateUse: return 28
        case .unassigned: return 29
        @unknown default: return 29
        }
    }
}
