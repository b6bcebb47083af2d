// expected-error: cannot convert value of type 'Bool' to expected argument type 'Predicate'
// Visibility is predicate data the server and every core evaluate, never a value computed while building.
import ParleyCore
import ParleyDSL

let showOther = true
let node = TextField("other", label: "Please specify").visible(when: showOther)
