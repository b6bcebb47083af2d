// expected-error: requires that 'Field' conform to 'StringProtocol'
// Operators on fields build predicate data; they never evaluate.
import ParleyCore
import ParleyDSL

let works: Bool = Field("purpose") == "work"
