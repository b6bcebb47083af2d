import ParleyHTTP

/// Where webhooks may be sent (DESIGN.md "Delivery", the SSRF guard): `https` to public addresses;
/// with `allowPrivate`, also loopback and private addresses, and plain `http` to those only.
/// Judged on the resolved addresses, every one of them, at registration and at every delivery.
struct WebhookTargetPolicy: Sendable {
    let allowPrivate: Bool

    /// The URL parsed, or the reason it can never be used.
    func parse(_ text: String) throws(HTTPClientError) -> ClientURL {
        let url = try ClientURL(text)
        if !url.isSecure, !allowPrivate {
            throw .invalidURL("the URL must use https (plain http only to private addresses in development)")
        }
        return url
    }

    /// Resolves the URL's host and returns its addresses when all are allowed; a host with any
    /// refused address is refused as a whole, so the choice of address cannot be steered.
    func addresses(for url: ClientURL) throws(HTTPClientError) -> [IPAddress] {
        let addresses = try HostResolver.resolve(url.host)
        for address in addresses {
            if let reason = refusal(address, secure: url.isSecure) {
                let named = IPAddress(url.host) == nil ? "\(url.host) resolves to \(address), " : "\(address) is "
                throw .refusedAddress(named + reason)
            }
        }
        return addresses
    }

    /// Why this address may not be used with this scheme, or nil when it may.
    func refusal(_ address: IPAddress, secure: Bool) -> String? {
        let category = AddressCategory(address)
        switch category {
        case .global:
            return secure ? nil : "a public address, which needs https"
        case .loopback, .privateNetwork:
            return allowPrivate
                ? nil
                : "\(category.rawValue); webhooks go to public addresses (serve --webhook-allow-private allows it)"
        default:
            return "\(category.rawValue); webhooks go to public addresses only"
        }
    }
}
