/// A transaction isolation level (Postgres documentation, "Transaction Isolation").
public enum IsolationLevel: String, Sendable, CaseIterable {
    /// Each statement sees data committed before it began (Postgres's default).
    case readCommitted = "READ COMMITTED"
    /// Every statement sees one snapshot taken at the transaction's first statement.
    case repeatableRead = "REPEATABLE READ"
    /// As if transactions ran one at a time; conflicts fail with a serialization failure.
    case serializable = "SERIALIZABLE"
}
