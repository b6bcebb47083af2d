extension JSONCalls {
    /// `replay(flow, path)`: whether a session's whole path completes the flow, as the server
    /// checks before completing (docs/sessions.md): `{"completed": true, "answers"}` or
    /// `{"completed": false, "refused": {"index", "step", "reason", "errors"?}}`. `path` is
    /// `[{"step", "answers"}, …]` (Tests/Conformance/README.md, replay vectors).
    public static func replay(flow: [UInt8], path: [UInt8]) -> [UInt8] {
        do throws(CallProblem) {
            let document = try parse(flow, "flow")
            let entries = try parse(path, "path")
            do {
                let replay = PathReplay(flow: try Flow(json: document, at: .root))
                return CanonicalJSON.encode(replay.replay(try PathReplay.path(json: entries)).json)
            } catch {
                throw CallProblem(error.description)
            }
        } catch {
            return failure(error.description)
        }
    }
}
