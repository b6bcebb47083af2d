import ParleyCore
import Testing

@testable import ParleyServer

/// Caches at their limit evict the least recently used entry, one at a time.
@Suite(.timeLimit(.minutes(10))) struct LRUDictionaryTests {
    @Test func aFullDictionaryEvictsOnlyTheLeastRecentlyUsed() {
        var cache = LRUDictionary<String, Int>(capacity: 3)
        cache.set(1, for: "a")
        cache.set(2, for: "b")
        cache.set(3, for: "c")
        #expect(cache.value(for: "a") == 1)  // a is now the most recent; b is the oldest
        cache.set(4, for: "d")
        #expect(cache.count == 3)
        #expect(cache.peek("b") == nil)
        #expect(cache.peek("a") == 1)
        #expect(cache.peek("c") == 3)
        #expect(cache.peek("d") == 4)
        cache.set(5, for: "e")  // c is the oldest now
        #expect(cache.peek("c") == nil)
        #expect(cache.peek("a") == 1)
    }

    @Test func anUpdateHandsBackWhatItEvictedOrReplaced() {
        var cache = LRUDictionary<String, Int>(capacity: 2)
        #expect(cache.update(1, for: "a") == [])
        #expect(cache.update(2, for: "b") == [])
        #expect(cache.update(10, for: "a") == [1], "replaced")
        #expect(cache.update(3, for: "c") == [2], "b was the least recently used")
        #expect(cache.count == 2 && cache.peek("a") == 10 && cache.peek("c") == 3)
    }

    @Test func costsBoundTheDictionaryLeastRecentlyUsedFirst() {
        var cache = LRUDictionary<String, Int>(capacity: 100, costLimit: 10)
        #expect(cache.update(1, for: "a", cost: 4) == [])
        #expect(cache.update(2, for: "b", cost: 4) == [])
        _ = cache.value(for: "a")  // b is now the least recently used
        #expect(cache.update(3, for: "c", cost: 4) == [2], "12 > 10: b goes, a stays")
        #expect(cache.totalCost == 8 && cache.count == 2)
        #expect(cache.update(30, for: "c", cost: 1) == [3], "a cheaper replacement only replaces")
        #expect(cache.totalCost == 5)
        #expect(cache.update(4, for: "d", cost: 10) == [1, 30], "one heavy entry pushes out both")
        #expect(cache.count == 1 && cache.totalCost == 10 && cache.peek("d") == 4)
        #expect(cache.update(5, for: "e", cost: 50) == [4], "the newest stays even when it alone is over")
        #expect(cache.count == 1 && cache.totalCost == 50)
        cache.removeValue(forKey: "e")
        #expect(cache.totalCost == 0 && cache.count == 0)
        _ = cache.update(6, for: "f", cost: 3)
        cache.removeAll()
        #expect(cache.totalCost == 0)
    }

    @Test func peekingDoesNotCountAsUse() {
        var cache = LRUDictionary<String, Int>(capacity: 2)
        cache.set(1, for: "a")
        cache.set(2, for: "b")
        _ = cache.peek("a")
        cache.set(3, for: "c")
        #expect(cache.peek("a") == nil)
        #expect(cache.peek("b") == 2)
    }

    @Test func overwritingAndRemovingKeepTheOrderConsistent() {
        var cache = LRUDictionary<Int, String>(capacity: 3)
        for key in 0..<3 { cache.set("\(key)", for: key) }
        cache.set("zero", for: 0)  // an overwrite is a use
        cache.removeValue(forKey: 1)
        cache.set("3", for: 3)  // fills the freed slot, evicts nothing
        #expect(cache.count == 3)
        cache.set("4", for: 4)  // 2 is the oldest
        #expect(cache.peek(2) == nil)
        #expect(cache.peek(0) == "zero")
        // A long run through a small cache never holds more than its capacity.
        for key in 5..<1000 {
            cache.set("\(key)", for: key)
            _ = cache.value(for: key - 1)
        }
        #expect(cache.count == 3)
        #expect(cache.peek(999) == "999")
        #expect(cache.peek(998) == "998")
    }

    @Test func aFullScreenCacheKeepsItsHotEntries() {
        let cache = ScreenCache(limit: 2)
        func key(_ step: String) -> ScreenCache.Key {
            ScreenCache.Key(flow: ScalarKey("f"), version: 1, step: ScalarKey(step), fingerprint: "x", locale: nil)
        }
        func entry(_ tag: String) -> ScreenCache.Entry {
            ScreenCache.Entry(body: [], etag: tag, served: "step", substitutions: [], headers: [:])
        }
        cache.store(entry("a"), for: key("a"))
        cache.store(entry("b"), for: key("b"))
        #expect(cache.entry(key("a"))?.etag == "a")
        cache.store(entry("c"), for: key("c"))
        #expect(cache.entry(key("a"))?.etag == "a")
        #expect(cache.entry(key("b")) == nil)
        #expect(cache.entry(key("c"))?.etag == "c")
    }
}
