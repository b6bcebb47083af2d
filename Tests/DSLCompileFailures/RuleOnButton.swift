// expected-error: requires that 'Kinds.Button' conform to 'TextInputKind'
// A button has no answer to match against a pattern.
import ParleyDSL

let node = Button("Go", action: .submit).pattern("[A-Z]+", "No.")
