// expected-error: a Field interpolated into a String is not a template
// A picker's options are values, never templates: a field written into one would become junk text.
import ParleyCore
import ParleyDSL

let node = Picker("plan", label: "Plan", options: ["basic", "for \(Field("firstName"))"])
