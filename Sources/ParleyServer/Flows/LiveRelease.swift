/// What is live for one flow on one channel (DESIGN.md "Staged rollouts"): the version of the
/// newest full release, and, while a partial release is rolling out, its version for a stable
/// fraction of new sessions.
struct LiveRelease: Sendable {
    /// A partial release in progress.
    struct Rollout: Sendable {
        /// The version the rollout serves to its fraction.
        let version: StoredFlowVersion
        /// 1…99: the fraction of subjects (new sessions, or `Parley-Subject`) that get it.
        let percent: Int
        /// The first release of this rollout: the bucket's hash key, so raising the percentage in a
        /// later release keeps every subject already inside it there.
        let rolloutId: Int
        /// A halted rollout sends every new subject to the base version.
        let halted: Bool
    }

    /// The newest full (100%) release's version; nil only before any full release.
    let base: StoredFlowVersion?
    /// Present while the newest release is partial.
    let rollout: Rollout?

    /// Whether subjects are being split between two versions right now.
    var isSplitting: Bool {
        guard let rollout else { return false }
        return !rollout.halted
    }

    /// The version served to `subject`: the rollout's for subjects in its bucket range, the base
    /// version otherwise and for a missing subject.
    func version(for subject: String?) -> StoredFlowVersion? {
        guard let rollout, !rollout.halted, let subject else { return base }
        let bucket = RolloutBucket.bucket(flow: rollout.version.flowId, rolloutId: rollout.rolloutId, subject: subject)
        return bucket < rollout.percent ? rollout.version : base
    }
}
