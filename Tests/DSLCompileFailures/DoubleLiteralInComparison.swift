// expected-error: cannot convert value of type 'Computed<ComputedRoles.Reference>' to expected argument type 'Double'
// Numbers never pass through binary floating point: write "99.5", not 99.5.
import ParleyCore
import ParleyDSL

let isCheap = Computed("premium") < 99.5
