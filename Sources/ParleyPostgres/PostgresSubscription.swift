/// A handler's subscription to a channel (``PostgresListener/subscribe(channel:handler:)``):
/// ``cancel()`` stops the handler from being called again.
public final class PostgresSubscription: Sendable {
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Removes the handler; a notification being delivered right now may still reach it.
    public func cancel() { onCancel() }
}
