// The WebAssembly exports of parley-core.wasm (docs/webassembly.md). Compiled only by
// deploy/wasm-core, with Embedded Swift, together with ParleyCore's sources as one module;
// no SwiftPM target builds it. Every call goes through JSONCalls.call, so a new call
// (e.g. `evaluate`) needs no change here.

/// The result of the last call, owned here until the next call replaces it.
///
/// `nonisolated(unsafe)` is safe: the module is built for `wasm32-unknown-none-wasm` without
/// shared memory or atomics, so it runs on exactly one thread and no two exports can overlap;
/// only the exports in this file read or write it, each before returning to the host.
nonisolated(unsafe) private var lastResult = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)

/// Allocates `size` bytes for the caller's arguments (16-byte aligned); 0 when memory is exhausted.
@_expose(wasm, "parley_alloc")
@_cdecl("parley_alloc")
func parleyAlloc(_ size: Int32) -> UnsafeMutableRawPointer? {
    UnsafeMutableRawPointer.allocate(byteCount: Int(max(size, 1)), alignment: 16)
}

/// Frees what ``parleyAlloc(_:)`` returned.
@_expose(wasm, "parley_free")
@_cdecl("parley_free")
func parleyFree(_ pointer: UnsafeMutableRawPointer?) {
    pointer?.deallocate()
}

/// Runs the call named by `name` (UTF-8, `nameLength` bytes) with `count` arguments, each a
/// pair of 32-bit words (address, length) at `arguments`; a length of -1 is an argument left
/// out. Returns the result's length (read it at ``parleyResult()``), or -1 for an unknown name.
@_expose(wasm, "parley_call")
@_cdecl("parley_call")
func parleyCall(_ name: UnsafePointer<UInt8>?, _ nameLength: Int32, _ arguments: UnsafePointer<Int32>?, _ count: Int32)
    -> Int32
{
    let callName = String(decoding: UnsafeBufferPointer(start: name, count: Int(nameLength)), as: UTF8.self)
    var values: [[UInt8]?] = []
    for index in 0..<Int(count) {
        let address = arguments?[2 * index] ?? 0
        let length = arguments?[2 * index + 1] ?? -1
        if length < 0 {
            values.append(nil)
        } else {
            let start = UnsafePointer<UInt8>(bitPattern: Int(address))
            values.append(Array(UnsafeBufferPointer(start: start, count: Int(length))))
        }
    }
    guard let result = JSONCalls.call(callName, values) else { return -1 }
    lastResult.deallocate()
    lastResult = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(result.count, 1))
    _ = lastResult.initialize(from: result)
    return Int32(result.count)
}

/// Where the last call's result starts (valid until the next call).
@_expose(wasm, "parley_result")
@_cdecl("parley_result")
func parleyResult() -> UnsafeMutableRawPointer? {
    UnsafeMutableRawPointer(lastResult.baseAddress)
}
