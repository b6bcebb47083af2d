// expected-error: requires that 'Kinds.Text' conform to 'InputKind'
// Rule modifiers exist only on inputs: a text collects no answer.
import ParleyDSL

let node = Text("Hello").required("Text is not an input.")
