import HLSPlaylist

extension LiveRecording {
  /// The playlist answered `playlist` at `now`: what to fetch, what went missing, and when
  /// to reload (RFC 8216 §6.3.4): one target duration after a reload that brought a new
  /// segment, half of it after one that did not. A playlist with `EXT-X-ENDLIST` is not
  /// reloaded; the recording finishes once what it holds is settled.
  ///
  /// `now` is best the instant the reload began: §6.3.4 counts the wait from then, and a
  /// later instant only makes the wait longer than needed.
  mutating func didReload(_ playlist: MediaPlaylist, at now: ContinuousClock.Instant) -> [Action] {
    let resumePoint: ResumePoint?
    switch phase {
    case .starting:
      resumePoint = nil
    case .resuming(let point):
      resumePoint = point
    case .recording:
      resumePoint = nil
    case .draining, .finished, .failed:
      return []
    }
    let target = playlist.targetDuration
    journal.targetDuration = target
    // Back after failing reloads: the silence is counted from now, so the time the playlist
    // failed never counts as silence, whatever its first answer brings.
    if failedReloads > 0 { lastNewSegmentAt = now }
    failedReloads = 0
    lastAnswerAt = now
    windowStart = playlist.mediaSequence
    if lastNewSegmentAt == nil { lastNewSegmentAt = now }

    var actions: [Action] = []
    if phase == .starting {
      guard !playlist.segments.isEmpty else {
        return nextStep(for: playlist, changed: false, at: now)
      }
      let start = startSequence(in: playlist, at: configuration.start)
      journal.firstSequence = start
      journal.nextSequence = start
      phase = .recording
    } else if let resumePoint {
      if isStale(playlist) { return nextStep(for: playlist, changed: false, at: now) }
      actions += settleAfterResume(playlist, from: resumePoint)
      phase = .recording
    }
    actions += skipWindowJump(
      playlist, reason: resumePoint == nil ? .fellOutOfWindow : .notRunning)
    let next = journal.nextSequence ?? playlist.mediaSequence
    let last = playlist.segments.last?.mediaSequenceNumber ?? (next - 1)
    let (fetches, leftFrom) = newSegments(in: playlist, refetching: resumePoint != nil)
    if !fetches.isEmpty { actions.append(.fetch(fetches)) }
    let changed = last >= next
    if changed {
      // The segments past the share are not seen: the next part starts at the first.
      journal.nextSequence = leftFrom ?? last + 1
      lastNewSegmentAt = now
    }
    // A share spent on the playlist's last segment is the stream's end, not the part's.
    if isShareSpent, !playlist.hasEndList || leftFrom != nil {
      return actions + finishForShare()
    }
    return actions + nextStep(for: playlist, changed: changed, at: now)
  }

  /// A reload failed at `now`: reload again after a backoff (half a target duration,
  /// doubling up to ``Configuration/longestReloadBackoff``), or fail once reloads have
  /// failed for ``Configuration/failAfterFailingReloads``. Failing reloads never count as
  /// silence: an origin that does not answer has not said the stream ended.
  mutating func didFailToReload(
    _ failure: ReloadFailure, at now: ContinuousClock.Instant
  ) -> [Action] {
    switch phase {
    case .starting, .resuming, .recording: break
    case .draining, .finished, .failed: return []
    }
    guard let target = journal.targetDuration else {
      phase = .failed(.noPlaylist(failure))
      return [.fail(.noPlaylist(failure))]
    }
    failedReloads += 1
    let since = lastAnswerAt ?? now
    lastAnswerAt = since
    if since.duration(to: now) >= configuration.failAfterFailingReloads.duration(target: target) {
      phase = .failed(.reloadsFailing(last: failure))
      return [.fail(.reloadsFailing(last: failure))]
    }
    let longest = configuration.longestReloadBackoff.duration(target: target)
    let doubling = Double(1 << min(failedReloads - 1, 16))
    let wait = min(Duration.seconds(Double(target) / 2 * doubling), longest)
    return [.reload(after: wait)]
  }

  /// After an answer: finish at `EXT-X-ENDLIST` or after the silence limit, else reload.
  private mutating func nextStep(
    for playlist: MediaPlaylist, changed: Bool, at now: ContinuousClock.Instant
  ) -> [Action] {
    let target = playlist.targetDuration
    if playlist.hasEndList {
      phase = .draining(.endList)
      return finishIfDrained()
    }
    if changed { return [.reload(after: .seconds(target))] }
    let silent = (lastNewSegmentAt ?? now).duration(to: now)
    if silent >= configuration.endAfterSilence.duration(target: target) {
      phase = .draining(.endedBySilence)
      return finishIfDrained()
    }
    return [.reload(after: .milliseconds(target * 500))]
  }

  /// Whether `playlist` ends before the last number already seen: an answer older than one
  /// before it (another CDN edge). Settling a resume on it would ledger numbers that a fresh
  /// answer still holds, so a resume waits for a fresh one.
  private func isStale(_ playlist: MediaPlaylist) -> Bool {
    guard let next = journal.nextSequence else { return false }
    let last = playlist.segments.last?.mediaSequenceNumber ?? (playlist.mediaSequence - 1)
    return last < next - 1
  }

  /// Ledgers the numbers from ``LiveJournal/nextSequence`` up to the window's first one:
  /// the window moved past them before any answer showed them.
  private mutating func skipWindowJump(_ playlist: MediaPlaylist, reason: LiveGap.Reason)
    -> [Action]
  {
    guard let next = journal.nextSequence, playlist.mediaSequence > next else { return [] }
    guard !playlist.segments.isEmpty else { return [] }
    let gap = LiveGap(sequences: next...(playlist.mediaSequence - 1), reason: reason)
    journal.ledger.add(gap)
    journal.nextSequence = playlist.mediaSequence
    return [.recordGap(gap)]
  }

  /// The segments to ask for: those at or past ``LiveJournal/nextSequence`` while the share
  /// allows (``isShareSpent``), and after a resume those asked for before and still in the
  /// window (already counted in the share). Each becomes asked. Also the first number left
  /// for the next part because the share is spent, nil when none is.
  private mutating func newSegments(in playlist: MediaPlaylist, refetching: Bool)
    -> (fetches: [LiveSegmentFetch], leftFrom: Int?)
  {
    guard let next = journal.nextSequence else { return ([], nil) }
    var discontinuity = playlist.discontinuitySequence
    var fetches: [LiveSegmentFetch] = []
    var leftFrom: Int?
    for segment in playlist.segments {
      // RFC 8216 §3: the tags before the segment's URI line, its own included, so a
      // segment keeps its number when its tag is first in the window and when the tag has
      // left it (then counted by EXT-X-DISCONTINUITY-SEQUENCE, §6.2.2).
      if segment.discontinuity { discontinuity += 1 }
      let sequence = segment.mediaSequenceNumber
      let again = refetching && journal.asked[sequence] != nil
      guard sequence >= next || again else { continue }
      if !again, leftFrom != nil || isShareSpent {
        leftFrom = leftFrom ?? sequence
        continue
      }
      journal.asked[sequence] = segment.duration
      fetches.append(
        LiveSegmentFetch(
          sequence: sequence, discontinuitySequence: discontinuity, segment: segment))
    }
    return (fetches, leftFrom)
  }

  /// On the first answer after a resume: the numbers asked for by the earlier run that left
  /// the window are a ``LiveGap/Reason/notRunning`` gap, and from the live edge the numbers
  /// never seen before the edge are one too.
  private mutating func settleAfterResume(_ playlist: MediaPlaylist, from point: ResumePoint)
    -> [Action]
  {
    var actions: [Action] = []
    let window = Set(playlist.segments.map(\.mediaSequenceNumber))
    actions += ledgerAsked(journal.asked.keys.filter { !window.contains($0) }, reason: .notRunning)
    if point == .liveEdge, let next = journal.nextSequence, !playlist.segments.isEmpty {
      let edge = startSequence(in: playlist, at: .liveEdge)
      if edge > next {
        actions += addGap(next...(edge - 1), reason: .notRunning)
        journal.nextSequence = edge
      }
    }
    return actions
  }

  /// Adds a gap to the ledger (merged there with a neighbour of the same reason) and the
  /// action that tells the caller.
  private mutating func addGap(_ sequences: ClosedRange<Int>, reason: LiveGap.Reason) -> [Action] {
    let gap = LiveGap(sequences: sequences, reason: reason)
    journal.ledger.add(gap)
    return [.recordGap(gap)]
  }
}
