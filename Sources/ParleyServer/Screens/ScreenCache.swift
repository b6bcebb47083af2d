import ParleyCore
import ParleyHTTP
import ParleyPostgres

/// Gated screens, computed once per (flow version, step, capability fingerprint, locale)
/// and served from memory (DESIGN.md "Capabilities and version gating": gating
/// is deterministic, so the result is cacheable). Never invalidated — versions
/// are immutable — only bounded.
final class ScreenCache: Sendable {
    /// The cache key.
    struct Key: Hashable, Sendable {
        let flow: ScalarKey
        let version: Int
        let step: ScalarKey
        let fingerprint: String
        /// The resolved locale (nil: a flow in one language): screens never cross locales.
        let locale: String?
    }

    /// A ready response. A class: every hit hands it out, and as a struct each hand-out
    /// retained and released its body, strings, report and both header lists.
    final class Entry: Sendable {
        /// The JSON body.
        let body: [UInt8]
        /// Strong entity tag, quoted.
        let etag: String
        /// Whether the upgrade screen was served instead of the step.
        let served: String
        /// Report entries that were not a plain keep, as (component type, decision) metric labels.
        let substitutions: [(component: String, decision: String)]
        /// `ETag`, `Vary`, `Cache-Control`, `Parley-Flow-Version`, `Parley-Served`: built once, sent on 200 and 304.
        let headers: HTTPHeaders
        /// ``headers`` and `Content-Type: application/json`, the 200's fields, so a hit adds none
        /// but its request id.
        let okHeaders: HTTPHeaders

        init(
            body: [UInt8], etag: String, served: String, substitutions: [(component: String, decision: String)],
            headers: HTTPHeaders
        ) {
            self.body = body
            self.etag = etag
            self.served = served
            self.substitutions = substitutions
            // Both encoded once, here: a hit writes their bytes with one copy and adds its
            // request id without copying them.
            self.headers = headers.sharingEncoding()
            var okHeaders = headers
            okHeaders.set("Content-Type", "application/json")
            self.okHeaders = okHeaders.sharingEncoding()
        }

        /// The same entry sharing no object with this one (its body and encoded fields are
        /// copied): for ``HotScreens``, whose per-loop copies are retained and released on
        /// every hit without touching a reference count another loop writes.
        func copy() -> Entry {
            Entry(
                body: body.withUnsafeBufferPointer { Array($0) }, etag: etag, served: served,
                substitutions: substitutions, headers: headers)
        }
    }

    /// Taken on every answer (its snapshot's screen) by any of the responder threads: a lock
    /// whose waiters sleep (``SleepingMutex``). Spinning, it was 1.1% of the server's CPU under a
    /// c=32 answer load (perf: `_MutexHandle._lockSlow` under `ScreenCache.entry`), waiters
    /// spinning while a preempted holder could not finish.
    private let entries: SleepingMutex<LRUDictionary<Key, Entry>>
    /// Lookups that found their screen, and those that did not (``Metric/screenCache``):
    /// counted beside the entries, not in the registry, so a hit costs no second lock.
    private let hits = LoopCounter()
    private let misses = LoopCounter()

    /// At most `limit` screens; the least recently served goes first.
    init(limit: Int) { entries = SleepingMutex(LRUDictionary(capacity: limit)) }

    func entry(_ key: Key, loop: Int = 0) -> Entry? {
        let entry = entries.withLock { $0.value(for: key) }
        if entry == nil { misses.add(1, loop: loop) } else { hits.add(1, loop: loop) }
        return entry
    }

    /// Counts a hit answered before this cache was asked (``HotScreens``), on loop `loop`.
    func countHit(loop: Int) { hits.add(1, loop: loop) }

    func lookupLines() -> [MetricsRegistry.Sample] {
        [
            Metric.screenCache.sample(hits.total, labels: #"result="hit""#),
            Metric.screenCache.sample(misses.total, labels: #"result="miss""#),
        ]
    }

    func store(_ entry: Entry, for key: Key) {
        entries.withLock { $0.set(entry, for: key) }
    }
}
