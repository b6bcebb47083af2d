import ParleyCore
import ParleyDSL
import Testing

@Suite(.timeLimit(.minutes(10))) struct ScreenGoldenTests {
    /// The DSL reproduces DESIGN.md's screen example exactly.
    @Test func designExampleScreen() throws {
        let screen = Screen("country", title: "Passport", spacing: .m) {
            Text("A few details first.").id("intro")
            TextField("passportCountry", label: "Passport country")
                .required("Passport country is required.")
                .pattern("[A-Z]{2}", "Use the two-letter code.")
                .id("country")
            Button("Continue", action: .submit).id("next")
        }
        let expected = """
            { "schema": "parley.screen/1", "id": "country", "title": "Passport",
              "root": { "type": "vstack", "id": "root", "properties": { "spacing": "m" },
                "children": [
                  { "type": "text", "id": "intro", "properties": { "text": "A few details first." } },
                  { "type": "textField", "id": "country",
                    "properties": { "fieldId": "passportCountry", "label": "Passport country",
                      "validation": [
                        { "rule": "required", "message": "Passport country is required." },
                        { "rule": "pattern", "value": "[A-Z]{2}", "message": "Use the two-letter code." } ] } },
                  { "type": "button", "id": "next",
                    "properties": { "title": "Continue", "action": { "type": "submit" } } } ] } }
            """
        #expect(screen == (try Screen.decode(expected)))
        #expect(Golden.json(screen) == CanonicalJSON.string(try JSONParser.parse(expected)))
        #expect(try Screen.decode(screen.canonicalBytes) == screen)
    }

    /// Ids without `.id` come from the structure: inputs use their fieldId,
    /// others `<parent>-<type><n>` counting same-type siblings only.
    @Test func derivedIds() {
        let screen = Screen("s") {
            Text("a")
            HStack {
                Text("b")
                Spacer()
                Text("c")
            }
            Text("d")
            TextField("name", label: "Name")
            Button("Go", action: .submit)
        }
        #expect(
            screen.nodes.map(\.id) == [
                "root", "root-text1", "root-hstack1", "root-hstack1-text1", "root-hstack1-spacer1",
                "root-hstack1-text2", "root-text2", "name", "root-button1",
            ])
    }

    /// Inserting a node of another type does not renumber siblings; an explicit id
    /// wins and its children derive from it.
    @Test func idsAreStableAndExplicitIdsWin() {
        let before = Screen("s") {
            Text("a")
            Button("Go", action: .submit)
        }
        let after = Screen("s") {
            Text("a")
            Divider()
            VStack { Text("inner") }.id("box")
            Button("Go", action: .submit)
        }
        #expect(before.nodes.map(\.id) == ["root", "root-text1", "root-button1"])
        #expect(after.nodes.map(\.id) == ["root", "root-text1", "root-divider1", "box", "box-text1", "root-button1"])
    }

    /// `if`/`else`, `switch`, `if let` and `for`-in in builder bodies.
    @Test func controlFlow() {
        enum Mode { case short, long }
        func build(flag: Bool, mode: Mode, extra: String?, items: [String]) -> [String] {
            let screen = Screen("s") {
                if flag { Text("yes") } else { Divider() }
                switch mode {
                case .short: Text("short")
                case .long: Text("long")
                }
                if let extra { Text(extra) }
                for item in items { Text(item) }
            }
            return screen.root.children.map { $0.properties["text"]?.stringValue ?? $0.type.name }
        }
        #expect(build(flag: true, mode: .short, extra: nil, items: []) == ["yes", "short"])
        #expect(build(flag: false, mode: .long, extra: "x", items: ["1", "2"]) == ["divider", "long", "x", "1", "2"])
    }

    /// Layout tokens: spacing, alignment, per-child size, text style.
    @Test func layoutTokens() {
        let screen = Screen("s", spacing: .l, alignment: .leading) {
            HStack(spacing: .xs, alignment: .center) {
                Text("a", style: .caption).size(.hug)
                Text("b").size(.fill)
                Spacer().size(.weight(2))
            }
        }
        #expect(
            Golden.root(screen)
                == #"{"children":[{"children":[{"id":"root-hstack1-text1","properties":{"size":"hug","style":"caption","text":"a"},"type":"text"},{"id":"root-hstack1-text2","properties":{"size":"fill","text":"b"},"type":"text"},{"id":"root-hstack1-spacer1","properties":{"size":{"weight":2}},"type":"spacer"}],"id":"root-hstack1","properties":{"alignment":"center","spacing":"xs"},"type":"hstack"}],"id":"root","properties":{"alignment":"leading","spacing":"l"},"type":"vstack"}"#
        )
    }

    /// Content components: image, card with children, carousel, grid, divider.
    @Test func contentComponents() {
        let node = Card("Reorder", subtitle: "Same items again", imageUrl: "https://img.example/1.png", action: .submit)
        {
            Image(url: "https://img.example/2.png", alt: "Basket", aspectRatio: "1.5").size(.fill)
            Carousel { Grid(columns: 2) { Divider() } }
        }.node(id: "c")
        #expect(
            Golden.json(node)
                == #"{"children":[{"id":"c-image1","properties":{"alt":"Basket","aspectRatio":1.5,"size":"fill","url":"https://img.example/2.png"},"type":"image"},{"children":[{"children":[{"id":"c-carousel1-grid1-divider1","properties":{},"type":"divider"}],"id":"c-carousel1-grid1","properties":{"columns":2},"type":"grid"}],"id":"c-carousel1","properties":{},"type":"carousel"}],"id":"c","properties":{"action":{"type":"submit"},"imageUrl":"https://img.example/1.png","subtitle":"Same items again","title":"Reorder"},"type":"card"}"#
        )
    }

    /// Every input component and its properties.
    @Test func inputComponents() {
        let screen = Screen("s") {
            TextField("a", label: "A", placeholder: "x")
            Picker("b", label: "B", options: ["1", "2"])
            QuickReplies("c", options: ["y", "n"])
            DatePicker("d", label: "D")
            Toggle("e", label: "E")
        }
        #expect(
            screen.root.children.map(Golden.json) == [
                #"{"id":"a","properties":{"fieldId":"a","label":"A","placeholder":"x"},"type":"textField"}"#,
                #"{"id":"b","properties":{"fieldId":"b","label":"B","options":["1","2"]},"type":"picker"}"#,
                #"{"id":"c","properties":{"fieldId":"c","options":["y","n"]},"type":"quickReplies"}"#,
                #"{"id":"d","properties":{"fieldId":"d","label":"D"},"type":"datePicker"}"#,
                #"{"id":"e","properties":{"fieldId":"e","label":"E"},"type":"toggle"}"#,
            ])
        #expect(screen.inputs.map(\.fieldId) == ["a", "b", "c", "d", "e"])
    }
}
