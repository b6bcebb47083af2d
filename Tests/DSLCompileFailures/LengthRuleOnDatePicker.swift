// expected-error: requires that 'Kinds.DatePicker' conform to 'TextInputKind'
// Length rules only on free-text inputs.
import ParleyDSL

let node = DatePicker("expiry", label: "Expiry").minLength(3, "Too short.")
