/// The one handler shape: called on the event loop with the request and its context, it
/// answers ``HTTPReply/now(_:)`` from memory or hands back ``HTTPReply/offLoop(_:)`` work. It
/// must not block or suspend itself. What it throws becomes a response in ``HTTPNext``.
public typealias InlineHandler<Context> = @Sendable (HTTPRequest, Context) throws -> HTTPReply
