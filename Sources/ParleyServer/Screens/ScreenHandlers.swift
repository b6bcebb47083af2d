import Logging
import ParleyCore
import ParleyHTTP

/// `GET /v1/screens/…` (DESIGN.md "HTTP API", "Capabilities and version gating"): the live
/// version's step, gated for the caller's core, answered from memory when it is cached.
struct ScreenHandlers: ServiceHandler {
    let configuration: ServiceConfiguration
    let versions: LiveVersions
    let screens: ScreenRenderer
    let cores: CoreCapabilities
    let locales: LocaleChoices
    let metrics: MetricsRegistry
    /// Each event loop's last answer from memory.
    let hotScreens: HotScreens
}

extension ScreenHandlers {
    /// `GET /v1/screens/{flow}[/{step}]`: the live version's step gated for `Parley-Core`, from
    /// memory on the event loop when the live version is cached (this loop's last answer when
    /// the request asks the same, ``HotScreens``), else after reading it.
    func screen(_ request: HTTPRequest, _ requestContext: RequestContext) throws -> HTTPReply {
        let target = try screenTarget(request, requestContext)
        let coreHeader = try CoreCapabilities.header(request)
        let question = HotScreens.Question(
            flow: target.flow, step: target.step, channel: target.channel, core: coreHeader,
            language: request.headers["Accept-Language"])
        // Read before the live version: a release after this moment makes a newer number, so
        // what is remembered below is never taken for newer than it is.
        let generation = versions.cache.generation
        let loop = requestContext.loopIndex
        if let hot = hotScreens.answer(question, generation: generation, loop: loop) {
            screens.cache.countHit(loop: loop)
            recordGating(hot.entry, coreLabel: hot.coreLabel)
            return .now(response(hot.entry, splitting: false, request))
        }
        let core = try cores.resolve(optionalHeader: coreHeader)
        if let known = versions.cache.live(flow: target.flow, channel: target.channel) {
            let (entry, splitting) = try screenEntry(known, target, core, request, loop: loop)
            recordGating(entry, coreLabel: core.label)
            if !splitting {
                hotScreens.remember(entry, coreLabel: core.label, for: question, generation: generation, loop: loop)
            }
            return .now(response(entry, splitting: splitting, request))
        }
        return .offLoop {
            let live = try await versions.liveRelease(flow: target.flow, channel: target.channel)
            let (entry, splitting) = try screenEntry(live, target, core, request, loop: loop)
            recordGating(entry, coreLabel: core.label)
            return response(entry, splitting: splitting, request)
        }
    }

    private func screenTarget(_ request: HTTPRequest, _ requestContext: RequestContext) throws(HTTPError)
        -> (flow: String, step: String?, channel: String)
    {
        let flow = try RequestInput.parameter("flow", requestContext)
        let step = requestContext.parameters["step"]
        let channel = try request.query("channel").map { (name: String) throws(HTTPError) in
            try configuration.checkedChannel(name)
        }
        return (flow, step, channel ?? configuration.defaultChannel)
    }

    /// The cached (or newly rendered) screen for the request, and whether a rollout is
    /// splitting its flow (then the answer depends on `Parley-Subject`).
    private func screenEntry(
        _ live: LiveRelease?, _ target: (flow: String, step: String?, channel: String),
        _ core: CoreCapabilities.Resolved, _ request: HTTPRequest, loop: Int
    ) throws(HTTPError) -> (entry: ScreenCache.Entry, splitting: Bool) {
        // During a partial rollout the version depends on who asks (`Parley-Subject`; none: the
        // full release's), so the response must not be shared by caches.
        let splitting = live?.isSplitting ?? false
        guard let version = splitting ? live?.version(for: try subject(request)) : live?.base else {
            throw ServiceProblem.notFound(
                "flow \"\(target.flow)\" has no live version on channel \"\(target.channel)\"")
        }
        let stepId = target.step ?? version.flow.start
        let locale = locales.locale(request, version)
        guard let entry = screens.render(version, step: stepId, for: core, locale: locale, loop: loop) else {
            throw ServiceProblem.notFound(
                "version \(version.version) of flow \"\(version.flowId)\" has no step \"\(stepId)\"")
        }
        return (entry, splitting)
    }

    /// The 200 (or the 304 `If-None-Match` earns) that `entry` answers.
    private func response(_ entry: ScreenCache.Entry, splitting: Bool, _ request: HTTPRequest) -> HTTPResponse {
        let notModified = request.headers["If-None-Match"].map { EntityTag.matches($0, entry.etag) } ?? false
        // The usual answer, a shared 200, goes out with the entry's own fields: no copy, no lookup.
        var headers = notModified ? entry.headers : entry.okHeaders
        if splitting {
            headers.set(
                "Cache-Control", "private, max-age=\(configuration.screenMaxAgeSeconds), must-revalidate")
            headers.set("Vary", "Parley-Core, Parley-Subject")
        }
        if notModified { return HTTPResponse(status: .notModified, headers: headers) }
        return HTTPResponse(status: .ok, headers: headers, body: entry.body)
    }

    /// The `Parley-Subject` header: the stable key that buckets a sessionless client into a rollout.
    private func subject(_ request: HTTPRequest) throws(HTTPError) -> String? {
        guard let subject = request.headers["Parley-Subject"] else { return nil }
        guard (1...200).contains(subject.utf8.count), subject.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ServiceProblem.badParameter("Parley-Subject must be 1 to 200 visible ASCII characters")
        }
        return subject
    }

    /// Counts what gating changed for this response, by core and component type.
    func recordGating(_ entry: ScreenCache.Entry, coreLabel: String) {
        for substitution in entry.substitutions {
            metrics.increment(
                .gatingSubstitutions,
                labels: [
                    ("core", coreLabel), ("component", substitution.component), ("outcome", substitution.decision),
                ])
        }
    }
}

/// `If-None-Match` evaluation (RFC 9110 §13.1.2: weak comparison, `*` matches any).
enum EntityTag {
    static func matches(_ header: String, _ etag: String) -> Bool {
        let opaque = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingASCIISpacesSubstring
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == opaque { return true }
        }
        return false
    }
}

extension Substring {
    fileprivate var trimmingASCIISpacesSubstring: Substring {
        var view = self
        while view.first == " " || view.first == "\t" { view.removeFirst() }
        while view.last == " " || view.last == "\t" { view.removeLast() }
        return view
    }
}
