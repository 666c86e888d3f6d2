import Foundation
import OfflineHTTP

/// Asks a stream's content steering manifest again while its pieces download, as its
/// ``SteeringSchedule`` says, and hands each new priority to the stream's
/// ``StreamFailover``: the pieces that start after it go to its first location first. One
/// for HLS (pathways) and DASH (service locations).
///
/// ``run(_:)`` sleeps on the session's clock until a request is due, so a test moves it with
/// a manual clock. A request is tried once (no retries: the next is a `TTL` away), through
/// the content's session, so it carries the content's request options; one that fails, or
/// answers something other than a steering manifest, keeps the last good priority (the
/// manifest's own order before one loaded) and never stops the download. The first failure
/// of a run, and the first good answer after it, go to `log`
/// (``SteeringSchedule/noteAnswer(from:failure:at:)``).
struct SteeringReloader: Sendable {
  let session: ContentSession
  let failover: StreamFailover
  /// The location (DASH service location, HLS pathway) of each source of ``failover``, by
  /// its rank; nil for a source that names none.
  let locations: [String?]
  /// Told, from the reloading task, a sentence for the log.
  var log: @Sendable (String) -> Void = { _ in }
  /// Handed each manifest that loads (its JSON object and the URL it came from) before its
  /// priority applies; returns the locations of the sources it added to ``failover``, which
  /// follow ``locations`` (HLS: pathway clones that first appear in a reload). Nil adds none.
  var addsSources: (@Sendable ([String: Any], URL) async -> [String?])?

  /// Reloads until cancelled or the schedule makes no more requests (a 410).
  func run(_ start: SteeringSchedule) async {
    var schedule = start
    var locations = self.locations
    var measuredAt = (instant: session.clock.instant, bytes: failover.servedBytes)
    while let due = schedule.due {
      do {
        try await session.clock.sleep(until: due)
      } catch {
        return
      }
      let now = session.clock.instant
      let bytes = failover.servedBytes
      let seconds = measuredAt.instant.duration(to: now) / .seconds(1)
      let throughput =
        seconds > 0 && bytes > measuredAt.bytes
        ? Int(Double(bytes - measuredAt.bytes) * 8 / seconds) : nil
      measuredAt = (now, bytes)
      let first = failover.firstPreferred
      let asked = schedule.url
      let answer = await Self.ask(
        &schedule, pathway: locations.indices.contains(first) ? locations[first] : nil,
        throughput: throughput, session: session, log: log)
      guard !Task.isCancelled else { return }
      var added: [String?] = []
      if let answer, let addsSources { added = await addsSources(answer.object, asked) }
      locations += added
      if answer?.changed == true || !added.isEmpty {
        failover.prefer(Self.order(of: locations, by: schedule.priority))
      }
    }
  }

  /// Asks the steering server once, at `schedule`'s URL with `pathway` and `throughput`,
  /// through `session`, and takes the answer into `schedule`; what the log should hear goes
  /// to `log`. Used for the first request and every reload, by HLS and DASH alike.
  ///
  /// - Returns: The manifest's JSON object (for what a protocol reads beside the shared
  ///   keys) and whether the priority changed; nil when the request failed, the answer was
  ///   no steering manifest, or the task was cancelled (then `schedule` is as it was).
  static func ask(
    _ schedule: inout SteeringSchedule, pathway: String?, throughput: Int?,
    session: ContentSession, log: (String) -> Void
  ) async -> (object: [String: Any], changed: Bool)? {
    let url = schedule.request(pathway: pathway, throughput: throughput)
    let data: Data
    do {
      data = try await session.data(
        from: url, limit: SteeringSchedule.limit, destination: "", maximumAttempts: 1)
    } catch {
      guard !Task.isCancelled else { return nil }
      let now = session.clock.instant
      schedule.didFail(error, at: now)
      if let line = schedule.noteAnswer(from: url, failure: error.description, at: now) {
        log(line)
      }
      return nil
    }
    let now = session.clock.instant
    let object = SteeringSchedule.object(of: data)
    let manifest = object.flatMap { SteeringSchedule.manifest(in: $0, names: schedule.names) }
    let changed = schedule.didLoad(manifest, at: now)
    let failure = manifest == nil ? "the answer is not a steering manifest of version 1" : nil
    if let line = schedule.noteAnswer(from: url, failure: failure, at: now) { log(line) }
    guard let object, manifest != nil else { return nil }
    return (object, changed)
  }

  /// The source ranks of `locations` in `priority`'s order: those it names by their place
  /// in it, then the others in their own order.
  static func order(of locations: [String?], by priority: [String]) -> [Int] {
    let rank = { (source: Int) in
      locations[source].flatMap { priority.firstIndex(of: $0) } ?? priority.count
    }
    return locations.indices.sorted { (rank($0), $0) < (rank($1), $1) }
  }
}
