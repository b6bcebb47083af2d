// expected: compiles
// The positive control: proves the harness finds the modules, so the failures above fail for their stated reason.
import ParleyCore
import ParleyDSL

let flow = Flow("f") {
    Step("a") {
        HStack(alignment: .top) { Text("A").size(.fill) }
        TextField("tip", label: "Tip").minimum("0.5").integer()
        QuickReplies("topic", options: ["A"]).fallback { field in Picker(field, label: "Topic", options: ["A"]) }
    } next: {
        Next(when: Field("topic") == "A" && Field("tip").isPresent, go: "a")
    }
}
