// expected-error: no exact matches in call to static method 'buildExpression'
// A flow's body holds steps and computed values, nothing else.
import ParleyCore
import ParleyDSL

let flow = Flow("f") { Text("Loose text") }
