// expected-error: cannot convert value of type 'Sized'
// Per-child size is meaningful only inside a vstack/hstack.
import ParleyDSL

let node = Card("Offer") { Text("Half price").size(.fill) }
