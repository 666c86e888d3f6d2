import DASHManifest
import Foundation
import OfflineHTTP

/// The manifest of a live presentation as the recorder reads it: the MPD, when its load
/// began, and how far the origin's clock is ahead of ours.
struct DASHLiveManifest: Sendable {
  /// The parsed MPD.
  var mpd: MPD
  /// When its load began (the next reload is counted from then).
  var began: ContinuousClock.Instant
  /// Seconds the origin's clock is ahead of ours: from the MPD's `UTCTiming` when it has
  /// one this module reads (`direct`, `http-iso`, `http-xsdate`), else the `Date` of the
  /// MPD's response, else 0.
  var clockOffset: TimeInterval

  /// The origin's wall time at our `now`.
  func wallTime(at now: Date) -> Date { now.addingTimeInterval(clockOffset) }
}

extension DASHDownload {
  /// Fetches the manifest once (no retries: the recorder paces its reloads) with the
  /// origin's time.
  ///
  /// - Throws: ``Transfer/Error``: the network failure, a status other than 200, or
  ///   `invalidMedia` for a document that is not an MPD.
  func fetchLiveManifest() async throws(Transfer.Error) -> DASHLiveManifest {
    let began = session.clock.instant
    let (data, date) = try await bodyAndDate(of: url, limit: Self.manifestLimit)
    let received = session.clock.now
    let mpd = try Self.parse(data, url: url, destination: folder.path)
    var offset = date.map { $0.timeIntervalSince(received) } ?? 0
    if let timed = await utcTime(mpd.live.utcTimings) {
      offset = timed.timeIntervalSince(session.clock.now)
    }
    return DASHLiveManifest(mpd: mpd, began: began, clockOffset: offset)
  }

  /// The time the first `UTCTiming` this module reads gives; nil when none answers.
  private func utcTime(_ timings: [UTCTiming]) async -> Date? {
    for timing in timings {
      switch timing.scheme {
      case .direct:
        if let date = timing.directDate { return date }
      case .httpISO, .httpXSDate:
        for text in timing.value.split(separator: " ") {
          guard let source = URL(string: String(text), relativeTo: url)?.absoluteURL,
            let (body, _) = try? await bodyAndDate(of: source, limit: 4096),
            let date = UTCTiming.date(fromBody: String(decoding: body, as: UTF8.self))
          else { continue }
          return date
        }
      case .other:
        continue
      }
    }
    return nil
  }

  /// The body of a 200 from `source` and its `Date` header.
  private func bodyAndDate(of source: URL, limit: Int) async throws(Transfer.Error) -> (
    Data, Date?
  ) {
    let sink = MemorySink(limit: limit)
    let head: HTTPResponseHead
    do {
      head = try await session.perform(session.request(source), delegate: sink)
    } catch {
      throw Transfer.Error(
        error.kind == .canceled ? .canceled : .network(error), url: source,
        destination: folder.path)
    }
    guard head.status == 200 else {
      throw Transfer.Error(
        .status(head.status, retryAfter: nil), url: source, destination: folder.path)
    }
    return (sink.data, head.headers["Date"].flatMap(HTTPDate.parse))
  }
}
