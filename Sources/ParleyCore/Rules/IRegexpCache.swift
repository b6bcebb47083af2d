#if canImport(Synchronization) && !hasFeature(Embedded)
    import Synchronization
#endif

/// Compiled patterns shared by every validation in the process, so the hot
/// server path compiles each published pattern once.
///
/// Keys are scalar-exact (``ScalarKey``): "ä" and "a\u{308}" are different
/// patterns. Invalid patterns are remembered as `nil`. The cache is bounded
/// (``maximumInstructions`` compiled instructions in total) and simply starts
/// over when full. It is guarded by `Synchronization.Mutex`; Embedded Swift on
/// wasm32 (parley-core.wasm) has no Mutex and no threads, so there it is a plain
/// table. Where neither applies (older Apple OS versions) every call compiles
/// afresh, which is correct, only slower.
enum IRegexpCache {
    /// Total compiled instructions kept before the cache is emptied (about 32 MB at worst).
    static let maximumInstructions = 1_000_000

    /// The compiled pattern, or `nil` when it is not a valid I-Regexp.
    static func regexp(for pattern: String) -> IRegexp? {
        #if canImport(Synchronization) && !hasFeature(Embedded)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                return SharedPatterns.shared.regexp(for: pattern)
            }
            return try? IRegexp(pattern)
        #elseif hasFeature(Embedded) && arch(wasm32)
            let key = ScalarKey(pattern)
            if let known = singleThreadedPatterns.lookup(key) { return known }
            let regexp = try? IRegexp(pattern)
            singleThreadedPatterns.store(regexp, for: key)
            return regexp
        #else
            return try? IRegexp(pattern)
        #endif
    }
}

/// The cache's contents: compiled patterns (`nil`: invalid) and their total size.
struct PatternTable {
    private var compiled: [ScalarKey: IRegexp?] = [:]
    private var instructions = 0

    /// The remembered outcome for `key`: `.some(nil)` for a pattern known to be invalid.
    func lookup(_ key: ScalarKey) -> IRegexp?? {
        compiled[key]
    }

    /// Remembers `regexp` for `key`, starting over when the table would exceed its bound.
    mutating func store(_ regexp: IRegexp?, for key: ScalarKey) {
        let size = regexp?.instructionCount ?? 1
        if instructions + size > IRegexpCache.maximumInstructions {
            compiled.removeAll()
            instructions = 0
        }
        compiled[key] = regexp
        instructions += size
    }
}

#if hasFeature(Embedded) && arch(wasm32)
    /// Safe without a lock: Embedded Swift's wasm32 target has no threads (no shared memory,
    /// no atomics), so nothing else runs while a validation reads or writes the table.
    nonisolated(unsafe) private var singleThreadedPatterns = PatternTable()
#endif

#if canImport(Synchronization) && !hasFeature(Embedded)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private final class SharedPatterns: Sendable {
        static let shared = SharedPatterns()

        // Mutex is Sendable and guards all mutable state, so the class is Sendable without `@unchecked`.
        private let state = Mutex(PatternTable())

        func regexp(for pattern: String) -> IRegexp? {
            let key = ScalarKey(pattern)
            if let known = state.withLock({ $0.lookup(key) }) { return known }
            // Compile outside the lock: two threads may race to compile the same pattern, which is harmless.
            let regexp = try? IRegexp(pattern)
            state.withLock { $0.store(regexp, for: key) }
            return regexp
        }
    }
#endif
