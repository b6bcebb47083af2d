import Foundation
import ParleyCore
import ParleyPostgres

extension DataKeyRotation {
    /// Every table that stores sealed values, in the order they are walked.
    var passes: [RotationPass] { [.sessions, .sessionLog, .completions, .idempotency, .outbox] }
}

extension RotationPass {
    /// `sessions`: the path, the prefill and the undone steps.
    static let sessions = RotationPass(
        table: "sessions", sealedText: #"path::text || "values"::text || forward::text"#,
        select: { cursor, limit in
            """
            SELECT key, path, "values", forward FROM sessions
            WHERE key > \(cursor.key) AND (path::text || "values"::text || forward::text) LIKE '%"$sealed"%'
            ORDER BY key LIMIT \(limit) FOR UPDATE
            """
        },
        cursor: { row in Cursor(key: try row.decode(column: "key")) },
        rotate: { row, sealing, connection in
            let key: Data = try row.decode(column: "key")
            let path = try SessionStore.json(row, "path")
            let values = try SessionStore.json(row, "values")
            let forward = try SessionStore.json(row, "forward")
            let newPath = try resealedEntries(path, sealing, key)
            let newValues = try resealed(values, sealing, key)
            let newForward = try resealedEntries(forward, sealing, key)
            let changed = [newPath, newValues, newForward].filter { $0 != nil }.count
            guard changed > 0 else { return 0 }
            try await connection.query(
                """
                UPDATE sessions SET path = \(SessionStore.jsonb(newPath ?? path)),
                    "values" = \(SessionStore.jsonb(newValues ?? values)),
                    forward = \(SessionStore.jsonb(newForward ?? forward))
                WHERE key = \(key)
                """)
            return changed
        })

    /// `session_log`: each change's answers (rewritable only as history maintenance).
    static let sessionLog = RotationPass(
        table: "session_log", sealedText: "coalesce(answers::text, '')",
        select: { cursor, limit in
            """
            SELECT session_key, rev, answers FROM session_log
            WHERE (session_key, rev) > (\(cursor.key), \(cursor.number)) AND answers::text LIKE '%"$sealed"%'
            ORDER BY session_key, rev LIMIT \(limit) FOR UPDATE
            """
        },
        cursor: { row in Cursor(key: try row.decode(column: "session_key"), number: try row.decode(column: "rev")) },
        rotate: { row, sealing, connection in
            let key: Data = try row.decode(column: "session_key")
            guard let answers = try resealed(try SessionStore.json(row, "answers"), sealing, key) else { return 0 }
            let rev: Int = try row.decode(column: "rev")
            try await connection.query(
                """
                UPDATE session_log SET answers = \(SessionStore.jsonb(answers)) WHERE session_key = \(key) AND rev = \(rev)
                """)
            return 1
        })

    /// `completions`: the final answers.
    static let completions = RotationPass(
        table: "completions", sealedText: "answers::text",
        select: { cursor, limit in
            """
            SELECT id, session_key, answers FROM completions
            WHERE id > \(cursor.number) AND answers::text LIKE '%"$sealed"%' ORDER BY id LIMIT \(limit) FOR UPDATE
            """
        },
        cursor: { row in Cursor(number: try row.decode(column: "id")) },
        rotate: { row, sealing, connection in
            let key: Data = try row.decode(column: "session_key")
            guard let answers = try resealed(try SessionStore.json(row, "answers"), sealing, key) else { return 0 }
            let id: Int = try row.decode(column: "id")
            try await connection.query(
                "UPDATE completions SET answers = \(SessionStore.jsonb(answers)) WHERE id = \(id)")
            return 1
        })

    /// `session_idempotency`: recorded responses, sealed whole when the session has sensitive fields.
    static let idempotency = RotationPass(
        table: "session_idempotency", sealedText: "convert_from(response, 'UTF8')",
        select: { cursor, limit in
            """
            SELECT session_key, key, response FROM session_idempotency
            WHERE (session_key, key) > (\(cursor.key), \(cursor.text))
              AND substring(response FROM 1 FOR 8) = convert_to('$sealed:', 'UTF8')
            ORDER BY session_key, key LIMIT \(limit) FOR UPDATE
            """
        },
        cursor: { row in Cursor(key: try row.decode(column: "session_key"), text: try row.decode(column: "key")) },
        rotate: { row, sealing, connection in
            let key: Data = try row.decode(column: "session_key")
            let idempotencyKey: String = try row.decode(column: "key")
            let stored: Data = try row.decode(column: "response")
            let sealed = String(decoding: stored.dropFirst(SessionStore.sealedPrefix.count), as: UTF8.self)
            guard DataKeyring.keyId(of: sealed) != sealing.keyring.currentId else { return 0 }
            let context = Array(key) + [0] + Array(idempotencyKey.utf8)
            let resealed = try sealing.keyring.seal(
                try sealing.keyring.open(sealed, context: context), context: context)
            try await connection.query(
                """
                UPDATE session_idempotency SET response = \(Data(SessionStore.sealedPrefix + Array(resealed.utf8)))
                WHERE session_key = \(key) AND key = \(idempotencyKey)
                """)
            return 1
        })

    /// `webhook_deliveries`: `session.completed` payloads, whatever their state (a dead or
    /// delivered one may be retried by an operator).
    static let outbox = RotationPass(
        table: "webhook_deliveries", sealedText: "convert_from(payload, 'UTF8')",
        select: { cursor, limit in
            """
            SELECT id, session_key, payload FROM webhook_deliveries
            WHERE id > \(cursor.number) AND session_key IS NOT NULL
              AND position(convert_to('"$sealed"', 'UTF8') IN payload) > 0
            ORDER BY id LIMIT \(limit) FOR UPDATE
            """
        },
        cursor: { row in Cursor(number: try row.decode(column: "id")) },
        rotate: { row, sealing, connection in
            let key: Data = try row.decode(column: "session_key")
            let payload: Data = try row.decode(column: "payload")
            guard case .object(var object) = try JSONParser.parse(Array(payload)),
                case .object(var data) = object["data"],
                let answers = try resealed(data["answers"], sealing, key)
            else { return 0 }
            data["answers"] = answers
            object["data"] = .object(data)
            let id: Int = try row.decode(column: "id")
            try await connection.query(
                "UPDATE webhook_deliveries SET payload = \(Data(CanonicalJSON.encode(.object(object)))) WHERE id = \(id)"
            )
            return 1
        })
}
