// expected-error: requires the types 'Kinds.VStack' and 'Kinds.HStack' be equivalent
// A vstack aligns horizontally (leading/center/trailing); top/bottom are hstack tokens.
import ParleyDSL

let node = VStack(alignment: .top) { Text("A") }
