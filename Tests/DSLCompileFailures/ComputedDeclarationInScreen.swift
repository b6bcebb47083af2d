// expected-error: cannot convert value of type 'Computed<ComputedRoles.Declaration>'
// Computed values belong to the flow, declared among its steps, not inside a screen.
import ParleyCore
import ParleyDSL

let step = Step("a") {
    Computed("premium") { .mul(Field("cost"), "0.04") }
}
