import Logging
import ParleyCore
import ParleyCrypto
import ParleyHTTP

/// Delivery (DESIGN.md "Delivery"): webhook endpoints, their deliveries, and the feed of
/// completed sessions.
struct DeliveryHandlers: ServiceHandler {
    let configuration: ServiceConfiguration
    let webhooks: WebhookStore
    let completions: CompletionFeed
    /// To tell an unknown flow (404) from one without completions.
    let flows: FlowStore
    let logger: Logger
}

extension DeliveryHandlers {
    /// Event types a webhook may subscribe to.
    static let webhookEvents = ["session.completed", "session.expired", "session.erased"]

    /// `POST /v1/webhooks` `{url, events?}`: checks the URL against the SSRF policy on every address
    /// its host resolves to (422 with the reason), stores it, and shows the secret this once.
    func createWebhook(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let body = try JSONBody.object(request)
        guard case .string(let text) = body["url"] else {
            throw ServiceProblem.invalidWebhook("\"url\" must be a string: the https URL to deliver to")
        }
        let events = try Self.webhookEvents(body["events"])
        let policy = WebhookTargetPolicy(allowPrivate: configuration.webhookAllowPrivate)
        let checked = await WebhookDispatcher.offLoop { () -> Result<ClientURL, HTTPClientError> in
            do throws(HTTPClientError) {
                let url = try policy.parse(text)
                _ = try policy.addresses(for: url)
                return .success(url)
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = checked { throw ServiceProblem.invalidWebhook("\(error)") }
        let id = "wh_" + Hex.encode((0..<8).map { _ in UInt8.random(in: 0...255) })
        let secret = WebhookSignature.newSecret()
        let limit = configuration.maxWebhooks
        guard
            let endpoint = try await webhooks.create(
                id: id, url: text, secret: secret, events: events, by: caller.name, limit: limit)
        else {
            throw ServiceProblem.conflict("too-many-webhooks", "\(limit) webhooks exist already; delete one first")
        }
        logger.info("webhook \(id) registered by \(caller.name) for \(events.joined(separator: ", "))")
        return Self.json(
            ["webhook": endpoint.json, "secret": .string(secret)], status: .created,
            headers: ["Location": "/v1/webhooks/\(id)"])
    }

    /// `events`: absent means every type; otherwise a non-empty list of known types.
    static func webhookEvents(_ value: JSONValue?) throws(HTTPError) -> [String] {
        guard let value, !value.isNull else { return webhookEvents }
        guard let items = value.arrayValue, !items.isEmpty, items.count <= webhookEvents.count else {
            throw ServiceProblem.invalidWebhook("\"events\" must be a non-empty list of \(webhookEvents)")
        }
        var events: [String] = []
        for item in items {
            guard let event = item.stringValue, webhookEvents.contains(event) else {
                throw ServiceProblem.invalidWebhook("unknown event \(item); the events are \(webhookEvents)")
            }
            if !events.contains(event) { events.append(event) }
        }
        return events
    }

    /// `GET /v1/webhooks`.
    func listWebhooks(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        Self.json(Self.page(try await webhooks.list().map(\.json), next: nil))
    }

    /// `DELETE /v1/webhooks/{id}`.
    func deleteWebhook(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        guard try await webhooks.delete(id: id) else {
            throw ServiceProblem.notFound("there is no webhook \"\(id)\"")
        }
        logger.info("webhook \(id) deleted by \(caller.name)")
        return HTTPResponse(status: .noContent)
    }

    /// `GET /v1/webhooks/{id}/deliveries?before=&limit=`: newest first.
    func listDeliveries(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let query = try ListQuery(request, cursorName: "before", configuration: configuration)
        let before = try query.positiveCursor("before", meaning: "a cursor from a previous page")
        guard try await webhooks.exists(id: id) else {
            throw ServiceProblem.notFound("there is no webhook \"\(id)\"")
        }
        let items = try await webhooks.deliveries(webhook: id, before: before, limit: query.limit)
        let next = items.count == query.limit ? items.last?["id"]?.stringValue : nil
        return Self.json(Self.page(items, next: next))
    }

    /// `POST /v1/webhooks/{id}/deliveries/{delivery}/retry`: a dead or pending delivery is due now.
    func retryDelivery(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let delivery = try RequestInput.number("delivery", requestContext)
        switch try await webhooks.retry(webhook: id, delivery: delivery) {
        case .scheduled:
            logger.info("webhook \(id) delivery \(delivery) retried by \(caller.name)")
            return Self.json(["status": "scheduled"], status: .accepted)
        case .alreadyDelivered:
            throw ServiceProblem.conflict("already-delivered", "delivery \(delivery) was delivered already")
        case .missing:
            throw ServiceProblem.notFound("webhook \"\(id)\" has no delivery \(delivery)")
        }
    }
}

extension ServiceProblem {
    /// 422: a webhook registration that cannot be used, saying why (scheme, address, resolution).
    static func invalidWebhook(_ detail: String) -> HTTPError {
        make(.unprocessableContent, "invalid-webhook", "The webhook cannot be registered", detail)
    }
}
