/// A plain path (origin-form, no `%` escape) read in place: its segments are the bytes between
/// its slashes, so routing compares them with a pattern's literals without making a string per
/// segment. The rules are ``RequestTarget``'s: the piece before the first `/` (empty) is not a
/// segment, a trailing empty segment is dropped, and `/` has none.
struct PlainPath {
    /// The most segments read in place; a longer path is routed by its decoded segments.
    static let maxSegments = 16

    /// The bytes after the leading `/`, without a trailing `/`: segments joined by `/`.
    let body: UnsafeBufferPointer<UInt8>
    /// How many segments there are (more than ``maxSegments``: only ``count`` is known).
    let count: Int
    /// Whether a segment is `.` or `..` (RFC 3986 §5.2.4 dot-segments, which name no route).
    let hasDotSegment: Bool
    /// Where each segment ends in ``body`` (its `/` or the end), found once for every route
    /// compared: segment `i` is `body[start(i)..<ends[i]]`.
    private var ends = InlineArray<16, Int32>(repeating: 0)
    /// Each segment's length in four bits (15 for 15 or more), segment `i` at bit `4i`: a route
    /// whose literals' lengths differ is refused by one comparison (``RoutePattern``).
    private(set) var lengthSignature: UInt64 = 0

    /// `path`'s bytes, which start with `/`.
    init(_ path: UnsafeBufferPointer<UInt8>) {
        var body = UnsafeBufferPointer(rebasing: path[1...])
        if let last = body.last, last == PlainPath.slash { body = UnsafeBufferPointer(rebasing: body.dropLast()) }
        self.body = body
        guard !body.isEmpty else {
            (count, hasDotSegment) = (0, false)
            return
        }
        var count = 0
        var dots = false
        var start = 0
        for index in 0...body.count where index == body.count || body[index] == PlainPath.slash {
            let length = index - start
            if length > 0 && length <= 2 && body[start] == PlainPath.dot && body[index - 1] == PlainPath.dot {
                dots = true
            }
            if count < Self.maxSegments {
                ends[count] = Int32(truncatingIfNeeded: index)
                lengthSignature |= UInt64(min(length, 15)) << UInt64(4 * count)
            }
            count += 1
            start = index + 1
        }
        (self.count, hasDotSegment) = (count, dots)
    }

    /// Whether every segment's bounds are known (at most ``maxSegments``).
    var isIndexed: Bool { count <= Self.maxSegments }

    /// Where segment `index` starts (`index` < ``count``, the path ``isIndexed``).
    func start(_ index: Int) -> Int { index == 0 ? 0 : Int(ends[index - 1]) + 1 }

    /// Where segment `index` ends.
    func end(_ index: Int) -> Int { Int(ends[index]) }

    /// Segment `index`'s length.
    func length(_ index: Int) -> Int { end(index) - start(index) }

    /// Segment `index` as a string.
    func string(_ index: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: body[start(index)..<end(index)]), as: UTF8.self)
    }

    /// The segments of `path` (a plain path starting with `/`) as strings.
    static func segments(of path: String) -> [String] {
        var path = path
        return path.withUTF8 { bytes in
            let plain = PlainPath(bytes)
            if plain.isIndexed { return (0..<plain.count).map { plain.string($0) } }
            // Past the indexed segments: split the body as a whole.
            return plain.body.split(separator: PlainPath.slash, omittingEmptySubsequences: false).map {
                String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self)
            }
        }
    }

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")
}
