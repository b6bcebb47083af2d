/// Picks the locale of a response from `Accept-Language` (RFC 9110 §12.5.4) by RFC 4647 §3.4
/// *lookup* against a flow's declared locales.
///
/// Ranges are tried by descending quality (ties in header order); each range is truncated from
/// the end (`fr-CA` → `fr`, dropping a single-letter subtag left at the end) until it equals a
/// declared locale, case-insensitively. `*` and `q=0` ranges match nothing. A malformed header
/// never fails a request: it falls back to the default (the first declared locale).
public enum LocaleNegotiation {
    /// The declared locale for `acceptLanguage`, or `locales[0]` when nothing matches.
    public static func lookup(_ acceptLanguage: String?, in locales: [String]) -> String? {
        guard let fallback = locales.first else { return nil }
        guard let acceptLanguage, let ranges = parse(acceptLanguage) else { return fallback }
        for range in ranges {
            var subtags = range.split(separator: "-").map(String.init)
            while !subtags.isEmpty {
                let candidate = subtags.joined(separator: "-")
                if let match = locales.first(where: { LanguageTag.equal($0, candidate) }) { return match }
                subtags.removeLast()
                if subtags.last?.count == 1 { subtags.removeLast() }
            }
        }
        return fallback
    }

    /// Language ranges by descending quality; nil when the header is malformed.
    static func parse(_ header: String) -> [String]? {
        guard header.utf8.count <= 1024 else { return nil }
        var weighted: [(range: String, quality: Int, order: Int)] = []
        for (order, element) in header.split(separator: ",", omittingEmptySubsequences: true).enumerated() {
            let parts = element.split(separator: ";").map { $0.trimmingSpaces }
            guard let range = parts.first, !range.isEmpty else {
                if parts.isEmpty || element.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
                return nil
            }
            guard range == "*" || isRange(range) else { return nil }
            var quality = 1000
            for parameter in parts.dropFirst() {
                guard parameter.lowercased().hasPrefix("q="), let value = Self.quality(parameter.dropFirst(2)) else {
                    return nil
                }
                quality = value
            }
            if quality > 0, range != "*" { weighted.append((String(range), quality, order)) }
        }
        return weighted.sorted { ($0.quality, -$0.order) > ($1.quality, -$1.order) }.map { $0.range }
    }

    /// `1*8ALPHA *("-" 1*8alphanum)`.
    private static func isRange(_ range: Substring) -> Bool {
        let subtags = range.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (1...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` in thousandths.
    private static func quality(_ text: Substring) -> Int? {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, whole == "0" || whole == "1" else { return nil }
        var fraction = pieces.count == 2 ? pieces[1] : ""
        guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        while fraction.count < 3 { fraction += "0" }
        let value = (whole == "1" ? 1000 : 0) + (Int(fraction) ?? 0)
        return value <= 1000 ? value : nil
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var view = self
        while view.first == " " || view.first == "\t" { view.removeFirst() }
        while view.last == " " || view.last == "\t" { view.removeLast() }
        return view
    }
}
