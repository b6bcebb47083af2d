#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
    import Synchronization

    /// One streamed response on Linux: URLSession's data delegate resumes the caller at the response
    /// head and yields every chunk of the body. Each stream gets its own `URLSession` (a delegate is
    /// per session), invalidated when the task completes so the session releases the delegate.
    final class StreamingDataDelegate: NSObject, URLSessionDataDelegate, Sendable {
        /// The caller waiting for the response head, until it arrives or the task fails.
        private let head = Mutex<CheckedContinuation<ParleyStreamingResponse, any Error>?>(nil)
        private let body: AsyncThrowingStream<[UInt8], any Error>
        private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation

        private override init() {
            (body, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            super.init()
        }

        /// Starts `request`; returns at its response head, or throws if none arrives.
        static func open(_ request: URLRequest) async throws -> ParleyStreamingResponse {
            let delegate = StreamingDataDelegate()
            let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
            let task = session.dataTask(with: request)
            delegate.continuation.onTermination = { _ in task.cancel() }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { head in
                    delegate.head.withLock { $0 = head }
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let head = self.head.withLock { $0.take() }
            do {
                let (status, headers) = try URLSessionTransport.head(response)
                head?.resume(returning: ParleyStreamingResponse(status: status, headers: headers, body: body))
            } catch {
                head?.resume(throwing: error)
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            continuation.yield([UInt8](data))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let head = self.head.withLock { $0.take() }
            head?.resume(throwing: error ?? ParleyClientError.invalidResponse("the stream ended before its head"))
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            session.finishTasksAndInvalidate()
        }
    }
#endif
