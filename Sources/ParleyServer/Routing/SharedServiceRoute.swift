/// One ``ServiceRoute`` shared by reference: every request context names its route, and copying
/// the struct (strings, arrays of responses and problems) at each middleware layer retained each
/// of its fields; a reference is one retain.
final class SharedServiceRoute: Sendable {
    let route: ServiceRoute

    init(_ route: ServiceRoute) { self.route = route }
}
