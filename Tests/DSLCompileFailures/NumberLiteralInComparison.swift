// expected-error: requires that 'Field' conform to 'BinaryInteger'
// Comparison bounds are numbers written as strings, like the wire: write "10000", not 10000.
import ParleyCore
import ParleyDSL

let isLarge = Field("total") >= 10000
