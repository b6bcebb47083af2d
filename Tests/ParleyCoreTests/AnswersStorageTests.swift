import Testing

@testable import ParleyCore

/// ``Answers`` stored packed (issue 27) behaves as the sorted list of scalar-exact pairs it models:
/// random inserts, replacements and removals, merges and ``Answers/onPath(_:context:screen:)``
/// checked against that list, with ids and values of every shape (empty, non-ASCII, canonically
/// equivalent but different scalars, longer than a small string, needing JSON escapes).
@Suite(.timeLimit(.minutes(10))) struct AnswersStorageTests {
    typealias Model = [(field: String, value: String)]

    static let fields = [
        "", "a", "b", "f1", "f10", "f2", "\u{E4}", "a\u{308}", "\u{E9}", "e\u{301}", "z", "\u{1F600}",
        "emailAgain", "email", "visa", "purpose", "a-field-id-longer-than-fifteen-bytes",
        "a-field-id-longer-than-fifteen-bytez",
    ]
    static let values = [
        "", "x", "an answer", " \t\r\n", "\u{A0}", "quote \" and \\ back\nslash\u{1}", "\u{1F600}\u{1F600}",
        "a value well past the fifteen bytes of a small string", "e\u{301}", "\u{E9}",
    ]

    /// `model` with `field` set to `value` (nil removes it), kept in scalar order.
    static func set(_ model: inout Model, _ field: String, _ value: String?) {
        let index = model.firstIndex { !$0.field.scalarPrecedes(field) } ?? model.count
        let found = index < model.count && model[index].field.isScalarEqual(to: field)
        switch (found, value) {
        case (true, .some(let value)): model[index].value = value
        case (false, .some(let value)): model.insert((field, value), at: index)
        case (true, .none): model.remove(at: index)
        case (false, .none): break
        }
    }

    /// Every way of reading `answers` agrees with `model`.
    static func check(_ answers: Answers, _ model: Model, _ comment: Comment? = nil) {
        let fieldIds = answers.fieldIds
        #expect(fieldIds.count == model.count, comment)
        #expect(zip(fieldIds, model).allSatisfy { $0.isScalarEqual(to: $1.field) }, comment)
        for field in fields {
            let expected = model.first { $0.field.isScalarEqual(to: field) }?.value
            let actual = answers[field]
            #expect((actual == nil) == (expected == nil), comment)
            if let actual, let expected { #expect(actual.isScalarEqual(to: expected), comment) }
            #expect(answers.isEmpty(field) == Answers.isEmpty(expected), comment)
            #expect(answers.hasValue(field) == (expected != nil), comment)
        }
        var object = JSONObject()
        for (field, value) in model { object[field] = .string(value) }
        #expect(answers.json == .object(object), comment)
        var written: [UInt8] = [0x20]
        answers.writeCanonicalJSON(into: &written)
        #expect(written == [0x20] + CanonicalJSON.encode(.object(object)), comment)
        #expect((try? Answers(.object(object))) == answers, comment)
        for limit in [0, 1, 2, 9, 20] {
            let expected = model.first { $0.value.unicodeScalars.count > limit }?.field
            let actual = answers.firstField(longerThan: limit)
            #expect((actual == nil) == (expected == nil), comment)
            if let actual, let expected { #expect(actual.isScalarEqual(to: expected), comment) }
        }
    }

    static func pick<T>(_ list: [T], _ random: inout SplitMix64) -> T {
        list[Int(random.next() % UInt64(list.count))]
    }

    static func random(_ random: inout SplitMix64) -> (Answers, Model) {
        var answers = Answers()
        var model: Model = []
        for _ in 0..<Int(random.next() % 12) {
            let field = pick(fields, &random)
            let value = random.next() % 5 == 0 ? nil : pick(values, &random)
            answers[field] = value
            set(&model, field, value)
        }
        return (answers, model)
    }

    @Test func randomEditsMatchTheModel() {
        var random = SplitMix64(seed: 27)
        for round in 0..<300 {
            var answers = Answers()
            var model: Model = []
            for step in 0..<40 {
                let field = Self.pick(Self.fields, &random)
                let value = random.next() % 4 == 0 ? nil : Self.pick(Self.values, &random)
                // Half the time on a copy that another value still holds (copy on write).
                let before = answers
                let beforeModel = model
                answers[field] = value
                Self.set(&model, field, value)
                Self.check(answers, model, "round \(round), step \(step)")
                Self.check(before, beforeModel, "round \(round), step \(step): the copy is untouched")
            }
        }
    }

    @Test func mergingMatchesTheModel() {
        var random = SplitMix64(seed: 11)
        for round in 0..<300 {
            let (earlier, earlierModel) = Self.random(&random)
            let (later, laterModel) = Self.random(&random)
            var model = earlierModel
            for (field, value) in laterModel { Self.set(&model, field, value) }
            Self.check(earlier.merging(later), model, "round \(round)")
            Self.check(earlier, earlierModel, "round \(round): the earlier answers are untouched")
        }
    }

    @Test func onPathMatchesTheModel() {
        var random = SplitMix64(seed: 5)
        let screens = PathFixture.flow.steps.map(\.screen)
        for round in 0..<300 {
            let screen = Self.pick(screens, &random)
            let (answers, answersModel) = Self.random(&random)
            let (context, contextModel) = Self.random(&random)
            // The screen's fields from this step's answers alone, every other field from the context.
            var model = contextModel.filter { pair in !screen.fieldIdList.contains { $0.isScalarEqual(to: pair.field) }
            }
            for (field, value) in answersModel where screen.fieldIdList.contains(where: { $0.isScalarEqual(to: field) })
            {
                Self.set(&model, field, value)
            }
            Self.check(Answers.onPath(answers, context: context, screen: screen), model, "round \(round)")
        }
    }

    @Test func equalityIsScalarExact() {
        let precomposed: Answers = ["\u{E9}": "\u{E4}"]
        #expect(precomposed != ["e\u{301}": "\u{E4}"])
        #expect(precomposed != ["\u{E9}": "a\u{308}"])
        #expect(precomposed == ["\u{E9}": "\u{E4}"])
        #expect(["a": "bc"] as Answers != ["ab": "c"], "the same bytes split differently")
        #expect(Answers() == [:])
        #expect(["": ""] as Answers != Answers(), "an empty id with an empty value is an answer")
    }
}
