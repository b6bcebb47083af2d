import Testing

@testable import ParleyServer

/// Which `Content-Type`s a JSON body may come with (RFC 9110 §8.3.1: the essence before any
/// parameters, case-insensitive), compared as bytes.
@Suite(.timeLimit(.minutes(10))) struct JSONBodyTests {
    @Test func jsonMediaTypesAreRecognisedByTheirEssence() {
        for type in [
            "application/json", "Application/JSON", "application/json; charset=utf-8", " application/json ;x=y",
            "application/problem+json", "application/merge-patch+JSON",
        ] {
            #expect(JSONBody.isJSON(type), "\(type)")
        }
        for type in ["text/plain", "application/jsonx", "application/x-www-form-urlencoded", "json", "", "+jso"] {
            #expect(!JSONBody.isJSON(type), "\(type)")
        }
    }
}
