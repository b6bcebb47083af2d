// expected-error: requires that 'Kinds.Picker' conform to 'NumericInputKind'
// Numeric rules only where an answer can be a number (textField).
import ParleyDSL

let node = Picker("size", label: "Size", options: ["S", "M"]).minimum(1, "Too small.")
