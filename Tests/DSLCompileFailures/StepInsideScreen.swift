// expected-error: cannot convert value of type 'Step'
// Steps only inside flows.
import ParleyCore
import ParleyDSL

let screen = Screen("s") { Step("inner") { Text("A") } }
