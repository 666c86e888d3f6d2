/// Puts the cues of a WebVTT rendition on the file's timeline, discontinuity domain by
/// domain, as the copy of the other tracks finds the epochs of that timeline
/// (``TimelineStitcher``).
///
/// A cue with an `X-TIMESTAMP-MAP` is on the media timeline of its own domain (the segments
/// since the last `EXT-X-DISCONTINUITY`; RFC 8216, section 3.5): it moves with the epoch the
/// video of that domain was put in, so a cue after a timestamp reset follows the reset
/// pictures. A cue without one counts from its domain's start, as players take it (for the
/// first domain: the file's start).
///
/// The domain a cue belongs to is matched to an epoch by the playlist's times: domain `k`
/// starts at the sum of the durations before it, and its epoch is the last one that started
/// before half of its first segment had gone by on the file's timeline (a domain whose
/// timestamps go on without a jump has no epoch of its own and keeps the one before). So a
/// domain's cues are placed once an epoch starts near its start or the copy is half a segment
/// into it, whichever comes first. A value with no I/O.
struct CueTimeline: Sendable {
  /// Where a discontinuity domain starts in the playlist's time, and the duration of its first
  /// segment, in seconds.
  struct Domain: Sendable, Equatable {
    /// The sum of the durations of the segments before it.
    var start: Double
    /// Its first segment's duration.
    var firstSegment: Double

    var window: Double { start + firstSegment / 2 }
  }

  /// An epoch of the file's timeline: where it starts on the file's timeline and what is
  /// added to the source's times in it, in seconds.
  struct Epoch: Sendable, Equatable {
    /// Its start on the file's timeline.
    var start: Double
    /// Added to a source time to put it on the file's timeline.
    var shift: Double
  }

  private var pending: [[WebVTTCue]]
  private let domains: [Domain]
  private var resolved = 0
  /// Cues placed and not yet taken, in the file's times, in order of their start.
  private var ready: [WebVTTCue] = []
  private var taken = 0

  /// Cues (each with its ``WebVTTCue/domain``) of a rendition whose discontinuity domains are
  /// `domains`, in order.
  init(cues: [WebVTTCue], domains: [Domain]) {
    let domains = domains.isEmpty ? [Domain(start: 0, firstSegment: 0)] : domains
    var pending = [[WebVTTCue]](repeating: [], count: domains.count)
    for cue in cues { pending[min(max(cue.domain, 0), domains.count - 1)].append(cue) }
    self.pending = pending
    self.domains = domains
  }

  /// The number of cues.
  var count: Int { pending.reduce(0) { $0 + $1.count } + ready.count - taken }

  /// Places the cues of each domain that `epochs` (in order, the first starting at zero) and
  /// the copy having reached `seconds` on the file's timeline settle, then takes from those
  /// placed the cues that start at or before `seconds`, in order.
  mutating func take(upTo seconds: Double, epochs: [Epoch]) -> [WebVTTCue] {
    while resolved < domains.count {
      let domain = domains[resolved]
      // Epochs are in order of start: only the last few can be near.
      let near = epochs.reversed().prefix { $0.start >= domain.start - domain.firstSegment / 2 }
        .contains { $0.start <= domain.window }
      guard near || seconds >= domain.window else { break }
      place(resolved, epochs: epochs)
    }
    var out: [WebVTTCue] = []
    while taken < ready.count, ready[taken].start <= seconds {
      out.append(ready[taken])
      taken += 1
    }
    return out
  }

  /// Places every domain's cues and takes every cue not yet taken.
  mutating func finish(epochs: [Epoch]) -> [WebVTTCue] {
    take(upTo: .infinity, epochs: epochs)
  }

  private mutating func place(_ index: Int, epochs: [Epoch]) {
    let domain = domains[index]
    let epoch = epochs.last { $0.start <= domain.window } ?? epochs.first
    let shift = epoch?.shift ?? 0
    // Where the domain begins on the file's timeline: its epoch's start when the epoch began
    // with it, else its start in the playlist.
    let began: Double
    if index == 0 {
      began = 0
    } else if let epoch, abs(epoch.start - domain.start) <= domain.firstSegment / 2 {
      began = epoch.start
    } else {
      began = domain.start
    }
    let placed = pending[index].map { cue in
      let offset = cue.isOnMediaTimeline ? shift : began
      return WebVTTCue(start: cue.start + offset, end: cue.end + offset, text: cue.text)
    }
    pending[index] = []
    resolved += 1
    // In order of start; cues that start together keep their order.
    ready = (Array(ready[taken...]) + placed).enumerated()
      .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    taken = 0
  }
}
