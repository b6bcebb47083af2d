// expected-error: cannot convert value of type 'DisplayText' to expected argument type 'String'
// Only text a person reads may be a template; an image's URL is not.
import ParleyCore
import ParleyDSL

let path: DisplayText = "https://example.com/\(Field("country")).png"
let node = Image(url: path, alt: "Flag")
