#if canImport(Synchronization) && !hasFeature(Embedded)
    import Synchronization
#endif

/// Compiled patterns shared by every validation in the process, so the hot
/// server path compiles each published pattern once.
///
/// Keys are scalar-exact (``ScalarKey``): "ä" and "a\u{308}" are different
/// patterns. Invalid patterns are remembered as `nil`. The cache is bounded
/// (``maximumInstructions`` compiled instructions in total) and simply starts
/// over when full. Where `Synchronization.Mutex` is unavailable (older Apple
/// OS versions, Embedded Swift's WebAssembly build) every call compiles afresh,
/// which is correct, only slower.
enum IRegexpCache {
    /// Total compiled instructions kept before the cache is emptied (about 32 MB at worst).
    static let maximumInstructions = 1_000_000

    /// The compiled pattern, or `nil` when it is not a valid I-Regexp.
    static func regexp(for pattern: String) -> IRegexp? {
        #if canImport(Synchronization) && !hasFeature(Embedded)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                return SharedPatterns.shared.regexp(for: pattern)
            }
        #endif
        return try? IRegexp(pattern)
    }
}

#if canImport(Synchronization) && !hasFeature(Embedded)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private final class SharedPatterns: Sendable {
        static let shared = SharedPatterns()

        private struct State {
            var compiled: [ScalarKey: IRegexp?] = [:]
            var instructions = 0
        }

        // Mutex is Sendable and guards all mutable state, so the class is Sendable without `@unchecked`.
        private let state = Mutex(State())

        func regexp(for pattern: String) -> IRegexp? {
            let key = ScalarKey(pattern)
            if let known = state.withLock({ $0.compiled[key] }) { return known }
            // Compile outside the lock: two threads may race to compile the same pattern, which is harmless.
            let regexp = try? IRegexp(pattern)
            state.withLock { state in
                let size = regexp?.instructionCount ?? 1
                if state.instructions + size > IRegexpCache.maximumInstructions {
                    state.compiled.removeAll()
                    state.instructions = 0
                }
                state.compiled[key] = regexp
                state.instructions += size
            }
            return regexp
        }
    }
#endif
