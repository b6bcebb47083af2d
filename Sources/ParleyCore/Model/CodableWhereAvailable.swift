#if hasFeature(Embedded)
    /// Embedded Swift (the WebAssembly build, docs/webassembly.md) has no `Codable`: there the
    /// model offers only its exact wire path, ``JSONRepresentable/decode(_:)`` and ``JSONRepresentable/json``.
    public protocol CodableWhereAvailable {}
#else
    /// `Codable` wherever the standard library has it, so Foundation users can encode model values;
    /// Embedded Swift (WebAssembly) has none and gets an empty protocol in its place.
    public typealias CodableWhereAvailable = Codable
#endif
