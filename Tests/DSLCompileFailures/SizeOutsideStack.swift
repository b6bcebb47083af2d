// expected-error: cannot convert value of type 'Sized'
// Per-child size is meaningful only inside a vstack/hstack/card, not a grid or carousel.
import ParleyDSL

let node = Grid(columns: 2) { Text("Half price").size(.fill) }
