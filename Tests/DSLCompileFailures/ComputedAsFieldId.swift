// expected-error: cannot convert value of type 'Computed<ComputedRoles.Reference>' to expected argument type 'Field'
// Computed names share no namespace with field ids: a computed value is read, never answered.
import ParleyCore
import ParleyDSL

let node = TextField(Computed("premium"), label: "Premium")
