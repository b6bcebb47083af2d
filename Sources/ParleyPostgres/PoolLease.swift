/// What ``PoolStateMachine`` grants a caller: a connection to use, or the right to open one.
///
/// A type of its own rather than nested in the state machine, because the pool's waiters are
/// continuations that resume with it: nested, it would name itself through its own generic
/// arguments.
enum PoolLease<Connection> {
    /// An idle (or just released) connection; check it before use, with a ping when `ping`
    /// (it idled longer than ``PostgresConfiguration/healthCheckAfterIdle``).
    case connection(Connection, ping: Bool)
    /// A slot counted as open: the caller opens a connection in it and reports the outcome
    /// with ``PoolStateMachine/connected()`` or ``PoolStateMachine/connectFailed(_:at:)``.
    case slot
}

extension PoolLease: Sendable where Connection: Sendable {}
