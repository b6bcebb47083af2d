import Foundation
import ParleyCore
import ParleyPostgres

/// One table's part of a ``DataKeyRotation``: which rows may hold sealed values, read in key order
/// after a cursor, and how one row is re-encrypted in place.
struct RotationPass: Sendable {
    /// Where a walk stands: the last row's key, in the fields its table uses (the zero values sort
    /// before every row).
    struct Cursor: Sendable {
        var key = Data()
        var number = 0
        var text = ""
    }

    /// The table walked.
    let table: String
    /// SQL text of the table's sealed values, for counting what another key still seals.
    let sealedText: String
    /// The next batch after a cursor, locked `FOR UPDATE`.
    let select: @Sendable (Cursor, Int) -> PostgresQuery
    /// A row's cursor.
    let cursor: @Sendable (PostgresRow) throws -> Cursor
    /// Re-encrypts one row in place; returns how many values changed.
    let rotate: @Sendable (PostgresRow, AnswerSealing, PostgresConnection) async throws -> Int

    /// The cursor before the first row.
    var start: Cursor { Cursor() }

    /// A condition for rows holding a value sealed with a key other than `current` (a key id is
    /// 8 hex digits from ``DataKeyring``, so splicing it is safe).
    func sealedWithOtherKey(_ current: String) -> String {
        precondition(current.allSatisfy(\.isHexDigit), "a data key id is hex")
        return "(\(sealedText)) ~ '(\"\\$sealed\": ?\"|^\\$sealed:)(?!\(current):)'"
    }

    /// Re-seals an answers object; nil when nothing in it needed it.
    static func resealed(_ answers: JSONValue?, _ sealing: AnswerSealing, _ key: Data) throws -> JSONValue? {
        guard let answers else { return nil }
        return try sealing.resealed(answers, session: Array(key))
    }

    /// Re-seals the answers of stored path entries (`[{"step", "answers"}]`); nil when unchanged.
    static func resealedEntries(_ entries: JSONValue, _ sealing: AnswerSealing, _ key: Data) throws -> JSONValue? {
        guard let items = entries.arrayValue else { return nil }
        var changed = false
        let result = try items.map { item -> JSONValue in
            guard case .object(var entry) = item, let answers = try resealed(entry["answers"], sealing, key) else {
                return item
            }
            entry["answers"] = answers
            changed = true
            return .object(entry)
        }
        return changed ? .array(result) : nil
    }
}
