// expected-error: cannot convert value of type 'Double' to expected argument type 'DecimalValue'
// Numbers never pass through binary floating point: write "0.5", not 0.5.
import ParleyDSL

let node = TextField("tip", label: "Tip").minimum(0.5, "Too small.")
