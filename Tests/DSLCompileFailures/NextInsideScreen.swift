// expected-error: cannot convert value of type 'Next'
// Transitions only in a step's next: block.
import ParleyCore
import ParleyDSL

let screen = Screen("s") { Next(go: "done") }
