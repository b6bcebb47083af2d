/// The packed entries of an ``Answers`` value, in one allocation: a table of where each field id
/// and value ends (two `UInt32` an entry), then the UTF-8 of every id and value, entries in scalar
/// order of their ids.
///
/// Never changed once made: a change to an ``Answers`` makes a new storage of the final size (two
/// `memcpy`s around the change), so a copy of an ``Answers`` is one retain, and its release one
/// free whatever its number of fields. One allocation rather than two arrays: an array made at its
/// final size went through the standard library's unspecialized generic allocation (~600
/// instructions each), and each array carried its own header.
/// Only ``make(count:byteCount:_:)`` writes to an instance's memory, before it returns it; after
/// that it is only read (which is why ``Answers`` can be `Sendable`: `ManagedBuffer` cannot).
final class AnswersStorage: ManagedBuffer<AnswersStorage.Header, UInt8> {
    /// How many entries, and how many bytes their ids and values take after the table.
    struct Header {
        let count: Int
        let byteCount: Int
    }

    /// A storage of `count` entries and `byteCount` bytes of text, `fill` writing the table of
    /// ends and the bytes (each at its final place; nothing is initialized before).
    static func make(
        count: Int, byteCount: Int,
        _ fill: (_ ends: UnsafeMutablePointer<UInt32>, _ bytes: UnsafeMutablePointer<UInt8>) -> Void
    ) -> AnswersStorage {
        // Named, not `create` through the dynamic `Self`: Embedded Swift (parley-core.wasm) passed
        // no usable metatype for it, and the allocation trapped.
        let storage = unsafeDowncast(
            AnswersStorage.create(minimumCapacity: 8 * count + byteCount) { _ in
                Header(count: count, byteCount: byteCount)
            },
            to: AnswersStorage.self)
        storage.withUnsafeMutablePointerToElements { tail in
            // The tail follows the two-word header, so it is aligned for `UInt32`.
            let ends = UnsafeMutableRawPointer(tail).bindMemory(to: UInt32.self, capacity: 2 * count)
            fill(ends, tail + 8 * count)
        }
        return storage
    }

    /// A storage of `count` entries and `byteCount` bytes of ids and values, which `entries`
    /// hands one entry at a time, in scalar order of the ids, to the function it is given: each
    /// id and value written at its place, the table of ends with them.
    @inline(__always)
    static func packed(
        count: Int, byteCount: Int,
        _ entries: ((_ id: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) -> Void
    ) -> AnswersStorage {
        make(count: count, byteCount: byteCount) { ends, bytes in
            var at = 0
            var entry = 0
            entries { id, value in
                AnswersEntries.copy(id, to: bytes + at)
                at += id.count
                ends[entry] = UInt32(at)
                AnswersEntries.copy(value, to: bytes + at)
                at += value.count
                ends[entry + 1] = UInt32(at)
                entry += 2
            }
        }
    }

    /// How many entries. Read through the header's address: `header` is a stored property of a
    /// class, which every read checks for exclusive access at run time (~60 instructions).
    var count: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.count }
    }

    /// Reads the entries.
    @inline(__always)
    func withEntries<Result>(_ body: (AnswersEntries) -> Result) -> Result {
        withUnsafeMutablePointers { header, tail in
            let count = header.pointee.count
            let ends = UnsafeRawPointer(tail).assumingMemoryBound(to: UInt32.self)
            return body(
                AnswersEntries(
                    count: count, byteCount: header.pointee.byteCount, ends: ends,
                    bytes: UnsafePointer(tail + 8 * count)))
        }
    }
}
