// expected-error: to expected argument type 'Step'
// A flow's body holds steps, nothing else.
import ParleyCore
import ParleyDSL

let flow = Flow("f") { Text("Loose text") }
