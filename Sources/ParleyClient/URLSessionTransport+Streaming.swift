import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport: ParleyStreamingTransport {
    /// Opens `request` and returns at the response head; the body follows as it arrives. Silence
    /// longer than ``streamIdleTimeout`` fails the body (URLSession's idle timeout), so a dead
    /// connection is noticed and reopened. Ending iteration of the body cancels the request.
    public func open(_ request: ParleyRequest) async throws -> ParleyStreamingResponse {
        let urlRequest = try urlRequest(request, timeout: streamIdleTimeout)
        #if canImport(FoundationNetworking)
            // FoundationNetworking has no `bytes(for:)`: a data delegate hands over each chunk.
            return try await StreamingDataDelegate.open(urlRequest)
        #else
            let (bytes, response) = try await session.bytes(for: urlRequest)
            let (status, headers) = try Self.head(response)
            let (body, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            let reader = Task {
                do {
                    // Hand over each line as it ends: an event is complete at its blank line.
                    var chunk: [UInt8] = []
                    for try await byte in bytes {
                        chunk.append(byte)
                        if byte == 0x0A || byte == 0x0D || chunk.count >= 16_384 {
                            continuation.yield(chunk)
                            chunk.removeAll(keepingCapacity: true)
                        }
                    }
                    if !chunk.isEmpty { continuation.yield(chunk) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in reader.cancel() }
            return ParleyStreamingResponse(status: status, headers: headers, body: body)
        #endif
    }
}
