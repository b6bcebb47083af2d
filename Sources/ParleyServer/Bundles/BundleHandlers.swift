import Logging
import ParleyCore
import ParleyCrypto
import ParleyHTTP

/// `POST /v1/bundles`: signed bundles from CI, applied atomically.
struct BundleHandlers: ServiceHandler {
    let configuration: ServiceConfiguration
    /// The trusted signing keys.
    let access: AccessStore
    let flows: FlowStore
    /// Dropped for every flow the bundle releases.
    let live: LiveVersionCache
    let logger: Logger
}

extension BundleHandlers {
    /// `POST /v1/bundles`: verify the `Parley-Signature` over the SHA-256 of the
    /// bundle's canonical JSON against a trusted key, lint every flow, then apply
    /// all flows or none. Re-posting the same bundle changes nothing.
    func publishBundle(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let (keyId, signature) = try BundleSignatureHeader.parse(request.headers.values(for: "Parley-Signature"))
        let document = try JSONBody.parse(request)
        let canonical = CanonicalJSON.encode(document)
        let digest = BundleSignature.digest(ofCanonicalBytes: canonical)
        guard let key = try await access.signingKey(keyId: keyId) else {
            throw ServiceProblem.untrustedBundle("no trusted signing key has the id \"\(keyId)\"")
        }
        do {
            try BundleSignature(keyId: keyId, digest: digest, signature: signature)
                .verify(canonicalBytes: canonical, with: key)
        } catch {
            throw ServiceProblem.untrustedBundle("the signature does not verify with key \"\(keyId)\": \(error)")
        }
        // Every flow linted, servability included.
        let problems = FlowLinter().lint(bundle: document)
        let bundle: ParleyCore.Bundle
        do {
            bundle = try ParleyCore.Bundle(json: document, at: .root)
        } catch {
            throw ServiceProblem.lintFailed(problems.isEmpty ? [error.lintProblem] : problems)
        }
        guard problems.isEmpty else { throw ServiceProblem.lintFailed(problems) }
        _ = try configuration.checkedChannel(bundle.channel)
        let outcome = try await flows.applyBundle(
            bundle, digest: digest, keyId: keyId, signature: signature)
        for flow in bundle.flows { live.invalidate(flow: flow.id, channel: bundle.channel) }
        let verb = outcome.alreadyApplied ? "already applied" : "applied"
        logger.info(
            "bundle \(BundleSignature.label(digest)) \(verb) on \(bundle.channel) by \(caller.name) with key \(keyId)")
        return Self.json(outcome.manifest, status: outcome.alreadyApplied ? .ok : .created)
    }
}

extension ModelDecodingError {
    /// The decoding error as a lint problem, for reports.
    var lintProblem: LintProblem {
        LintProblem(code: code, pointer: pointer, message: message)
    }
}
