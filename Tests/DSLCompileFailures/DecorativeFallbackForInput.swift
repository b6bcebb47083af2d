// expected-error: instance method 'fallback' requires that 'Kinds.Text' conform to 'InputKind'
// An input's fallback must be an input too (it stands in for the field).
import ParleyDSL

let node = QuickReplies("topic", options: ["A", "B"]).fallback { _ in Text("Please update the app.") }
