import Foundation
import OfflineHTTP
import OfflineLocks

/// The sources of one segmented download as its connections share them: a
/// ``SourceChoice`` under a lock, the validator each mirror answered its probe with, and the
/// probes that check every mirror before any of its bytes are used.
///
/// Touched by every connection between requests (never during one); its lock is never held
/// across an `await`.
final class MirrorSources: Sendable {
  private struct State: Sendable {
    var choice: SourceChoice
    /// Each mirror's own `If-Range` value (the primary's is the board's), by index.
    var validators: [Int: String] = [:]
    /// Which source wrote which bytes in this run, in the order requests ended (one entry
    /// a request: about one a second a connection).
    var written: [(bytes: Range<Int64>, source: Int)] = []
  }
  private let state: Locked<State>

  /// Sources over `primary` and `mirrors`; those in `preferred` (nearby peers) take every
  /// request while one of them is usable.
  init(primary: URL, mirrors: [URL], preferred: Set<URL> = []) {
    state = Locked(
      State(choice: SourceChoice(primary: primary, mirrors: mirrors, preferred: preferred)))
  }

  /// Whether there is any mirror.
  var hasMirrors: Bool { state.withLock { $0.choice.hasMirrors } }

  /// The sources' URLs, the primary first.
  var urls: [URL] { state.withLock { $0.choice.sources.map(\.url) } }

  /// What each source served and why any was dropped.
  var reports: [Transfer.SourceReport] { state.withLock { $0.choice.reports } }

  /// Asks every mirror, at once, for the file's first byte, and keeps only those whose
  /// length is `total`, that answer ranges and, when the file's SHA-256 is known (`sha256`)
  /// and the mirror tells one (`Repr-Digest` or `Digest`), tell the same; tells `dropped` of
  /// each other one (on the calling task, once each). Nothing of a mirror is written before
  /// this.
  func probeMirrors(
    total: Int64, sha256: String? = nil, transfer: Transfer,
    dropped: @Sendable (URL, String) -> Void
  ) async {
    let urls = self.urls
    guard urls.count > 1 else { return }
    let results = await withTaskGroup(of: (Int, Probe).self) { group in
      for index in urls.indices.dropFirst() {
        group.addTask { (index, await Self.probe(urls[index], transfer: transfer)) }
      }
      var results: [(Int, Probe)] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }
    }
    for (index, probe) in results {
      let reason: SourceChoice.DropReason? = state.withLock { state in
        switch probe {
        case .answered(let status, let length, let validator, let told):
          var reason = state.choice.didProbe(
            index, length: length, ranges: status == 206, status: status, expected: total)
          if reason == nil, let sha256, let told, told != sha256 {
            reason = state.choice.didDisagree(index, sha256: told, expected: sha256)
          }
          if reason == nil, let validator { state.validators[index] = validator }
          return reason
        case .unreachable(let text):
          return state.choice.didNotReach(index, reason: text)
        }
      }
      if let reason { dropped(urls[index], reason.description) }
    }
  }

  /// What a mirror's probe told.
  private enum Probe: Sendable {
    case answered(status: Int, length: Int64?, validator: String?, sha256: String?)
    case unreachable(String)
  }

  private static func probe(_ url: URL, transfer: Transfer) async -> Probe {
    var request = transfer.session.request(url)
    request.headers.add(name: "Range", value: "bytes=0-0")
    do throws(HTTPError) {
      let head = try await transfer.transport.perform(request, delegate: MirrorProbeSink())
      let length = head.headers["Content-Range"].flatMap { ContentRange($0)?.completeLength }
      return .answered(
        status: head.status, length: length, validator: Validators(head).ifRangeValue,
        sha256: ResponseHints.sha256(of: head))
    } catch {
      return .unreachable(error.description)
    }
  }

  /// Picks the source of the next request: its index, URL and `If-Range` value (nil for
  /// the primary: the board's own, or a mirror that told none).
  /// `avoiding`: sources not to ask while another is usable (those that served a piece of
  /// the range found bad, ``RangeBoard/avoided(_:)``).
  func pick(avoiding: Set<Int> = []) -> (index: Int, url: URL, validator: String?) {
    state.withLock { state in
      let index = state.choice.pick(at: .now, avoiding: avoiding)
      return (index, state.choice.sources[index].url, state.validators[index])
    }
  }

  /// The usable source with the highest measured pace and that pace (one connection's);
  /// nil when none is measured.
  var fastest: (index: Int, pace: Double)? {
    state.withLock { $0.choice.fastest(at: .now) }
  }

  /// Picks `index` for the next request when it is still usable (the end game's taker
  /// asks the source it was measured against), else as ``pick()`` does.
  func pick(preferring index: Int, avoiding: Set<Int> = []) -> (
    index: Int, url: URL, validator: String?
  ) {
    state.withLock { state in
      var chosen = index
      if state.choice.isUsable(index, at: .now), !avoiding.contains(index) {
        state.choice.didPick(index)
      } else {
        chosen = state.choice.pick(at: .now, avoiding: avoiding)
      }
      return (chosen, state.choice.sources[chosen].url, state.validators[chosen])
    }
  }

  /// One connection's measured pace of `index`, bytes per second; nil before it is measured.
  func pace(of index: Int) -> Double? {
    state.withLock { $0.choice.sources[index].pace }
  }

  /// The span of a request to `index` that would take about
  /// ``SegmentedTransfer/requestDuration`` at the source's measured pace (one connection's);
  /// nil before it is measured.
  func span(of index: Int) -> Int64? {
    state.withLock { state in
      state.choice.sources[index].pace.map {
        Int64($0 * SegmentedTransfer.requestDuration.inSeconds)
      }
    }
  }

  /// Records that `index` wrote `bytes` of the file.
  func wrote(_ bytes: Range<Int64>, by index: Int) {
    guard !bytes.isEmpty else { return }
    state.withLock { $0.written.append((bytes, index)) }
  }

  /// Penalises every source that wrote a byte of `bytes`, a piece whose SHA-256 is wrong
  /// (``SourceChoice/didServeBadPiece(_:wasted:)``); returns them, to avoid when the piece
  /// is fetched again, and those dropped for it (their URL and why).
  func didServeBadPiece(_ bytes: Range<Int64>) -> (
    culprits: Set<Int>, dropped: [(URL, String)]
  ) {
    state.withLock { state in
      let writes = state.written.filter { $0.bytes.overlaps(bytes) }
      state.written.removeAll { $0.bytes.overlaps(bytes) }
      let culprits = Set(writes.map(\.source))
      let dropped = culprits.sorted().compactMap { index -> (URL, String)? in
        let wasted = writes.filter { $0.source == index }.reduce(Int64(0)) {
          $0 + Int64($1.bytes.clamped(to: bytes).count)
        }
        return state.choice.didServeBadPiece(index, wasted: wasted).map {
          (state.choice.sources[index].url, $0.description)
        }
      }
      return (culprits, dropped)
    }
  }

  /// A request of `index` ended well after `bytes` in `elapsed`.
  func didFinish(_ index: Int, bytes: Int64, in elapsed: Duration) {
    state.withLock { $0.choice.didFinish(index, bytes: bytes, in: elapsed) }
  }

  /// A request of `index` brought its response's head `elapsed` after it went out.
  func didAnswer(_ index: Int, after elapsed: Duration) {
    state.withLock { $0.choice.didAnswer(index, after: elapsed) }
  }

  /// How long a request of `index` takes to bring its head (smoothed); nil before one has.
  func firstByte(of index: Int) -> Duration? {
    state.withLock { $0.choice.sources[index].firstByte }
  }

  /// A request of `index` failed after `bytes` in `elapsed`.
  func didFail(_ index: Int, bytes: Int64, in elapsed: Duration) -> SourceChoice.FailureAction {
    state.withLock { $0.choice.didFail(index, bytes: bytes, in: elapsed, at: .now) }
  }

  /// A request of `index` was answered with other bytes than asked for.
  func didAnswerInconsistently(_ index: Int) -> SourceChoice.DropReason? {
    state.withLock { $0.choice.didAnswerInconsistently(index) }
  }
}

/// Reads a probe's head and stops before its body.
private final class MirrorProbeSink: HTTPResponseDelegate {
  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition { .stop }
  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {}
}
