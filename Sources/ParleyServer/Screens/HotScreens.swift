/// The last screen each event loop answered from memory, with the request parts it was
/// answered for: the next request asking the same of the same loop is answered from here.
///
/// Most screen traffic is many clients asking for the same few screens. Without this, each
/// request took three shared locks (the core's capabilities, the live version, the screen
/// cache) and retained objects both loops share, so on a loaded server the cache lines behind
/// them moved between cores on every request. Each loop's part holds its own copy of the entry
/// (``ScreenCache/Entry/copy()``), so a hit touches only this loop's memory.
///
/// An answer is remembered only when nothing but the compared parts decides it: the live
/// release came from ``LiveVersionCache`` at `generation` (any release since changes that
/// number) and was not splitting a rollout; the entry and the locale are functions of the
/// version, the step, the core header and `Accept-Language`.
final class HotScreens: Sendable {
    /// The parts of a screen request that decide its answer (validated before they get here).
    struct Question: Sendable, Equatable {
        let flow: String
        let step: String?
        let channel: String
        /// `Parley-Core` as sent (sent once), nil when absent.
        let core: String?
        /// The first `Accept-Language`, nil when absent.
        let language: String?
    }

    /// A remembered answer: this loop's copy of the entry and the core's metric label.
    struct Answer: Sendable {
        let entry: ScreenCache.Entry
        let coreLabel: String
    }

    private struct Remembered: Sendable {
        let question: Question
        let generation: UInt64
        let answer: Answer
    }

    private let parts = LoopShards<Remembered?> { nil }

    init() {}

    /// Loop `loop`'s remembered answer when it was given for `question` at `generation`.
    func answer(_ question: Question, generation: UInt64, loop: Int) -> Answer? {
        parts.withLock(loop: loop) { remembered in
            guard let remembered, remembered.generation == generation, remembered.question == question else {
                return nil
            }
            return remembered.answer
        }
    }

    /// Remembers `entry` (copied for this loop) as loop `loop`'s answer to `question`.
    func remember(_ entry: ScreenCache.Entry, coreLabel: String, for question: Question, generation: UInt64, loop: Int)
    {
        let remembered = Remembered(
            question: question, generation: generation, answer: Answer(entry: entry.copy(), coreLabel: coreLabel))
        parts.withLock(loop: loop) { $0 = remembered }
    }
}
