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

// Expressions (DESIGN.md "Expressions"): visibility, comparisons, computed values and templates.
let insurance = Flow("g") {
    Computed("premium") { .round(.mul(Field("cost"), "0.04"), scale: 2) }
    Step("a") {
        Picker("purpose", label: "Purpose", options: ["other"])
        TextField("other", label: "Specify").visible(when: Field("purpose") == "other")
        Text("Premium \(Computed("premium"))", fallback: "Premium on the next screen")
        TextField("note", label: "Note for \(Field("purpose"))").requiredIf(Computed("premium") > "100")
    } next: {
        Next(when: Field("cost") >= "10000" || Computed("premium") <= "9.5", go: "a")
    }
}
