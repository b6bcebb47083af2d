// expected-error: does not conform to expected type 'FormulaConvertible'
// A formula's numbers are strings, like the wire's literals: write "2", not 2.
import ParleyCore
import ParleyDSL

let doubled = Formula.mul(Field("cost"), 2)
