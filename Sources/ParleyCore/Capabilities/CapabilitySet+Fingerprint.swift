extension CapabilitySet {
    /// A canonical description of the set's *content*, for the server to hash
    /// into a fingerprint (ETag, cache key).
    ///
    /// Form: `parley.capabilities/1;base=<version>[;add=<items>][;remove=<items>]`.
    /// The base is the ``CoreVersion/supported`` version (or `none`) whose
    /// standard set differs from this one in the fewest items, the newest on a
    /// tie; items are ``Capability/description``s in scalar order, comma-separated.
    /// Two equal sets always have the same description, however they were built;
    /// different sets never do.
    public var fingerprintInput: String {
        var candidates: [(name: String, bits: CapabilityBits)] = [("none", CapabilityBits())]
        for version in CoreVersion.supported {
            candidates.append((version.description, CapabilitySet(core: version).bits))
        }
        var best = candidates[0]
        for candidate in candidates.dropFirst()
        where candidate.bits.differenceCount(bits) <= best.bits.differenceCount(bits) {
            best = candidate
        }
        var added: [String] = []
        var removed: [String] = []
        for (position, entry) in CapabilityRegistry.entries.enumerated() {
            switch (bits.contains(position), best.bits.contains(position)) {
            case (true, false): added.append(entry.capability.description)
            case (false, true): removed.append(entry.capability.description)
            default: break
            }
        }
        var text = "parley.capabilities/1;base=\(best.name)"
        if !added.isEmpty { text += ";add=" + added.sorted { $0.scalarPrecedes($1) }.joined(separator: ",") }
        if !removed.isEmpty { text += ";remove=" + removed.sorted { $0.scalarPrecedes($1) }.joined(separator: ",") }
        return text
    }
}
