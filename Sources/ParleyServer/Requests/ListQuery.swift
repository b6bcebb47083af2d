import ParleyHTTP

/// `?limit=` and `?after=` / `?before=` of list endpoints, validated.
struct ListQuery {
    /// Page size.
    let limit: Int
    /// Opaque cursor as given.
    let cursor: String?

    init(_ request: HTTPRequest, cursorName: String, configuration: ServiceConfiguration) throws(HTTPError) {
        if let text = request.query("limit") {
            guard let value = RequestInput.positiveInteger(text), value <= configuration.maxPageSize else {
                throw ServiceProblem.badParameter("limit must be an integer from 1 to \(configuration.maxPageSize)")
            }
            limit = value
        } else {
            limit = configuration.defaultPageSize
        }
        cursor = request.query(cursorName)
        if let cursor, !RequestInput.isIdentifier(cursor) {
            throw ServiceProblem.badParameter(
                "\(cursorName) must be 1 to \(RequestInput.maximumIdentifierLength) characters without U+0000")
        }
    }

    /// The cursor as a positive integer (a version, a row id), nil when absent; 400 saying
    /// `cursorName must be <meaning>` otherwise.
    func positiveCursor(_ cursorName: String, meaning: String) throws(HTTPError) -> Int? {
        guard let cursor else { return nil }
        guard let value = RequestInput.positiveInteger(cursor) else {
            throw ServiceProblem.badParameter("\(cursorName) must be \(meaning)")
        }
        return value
    }
}
