import Foundation
import OfflineHTTP

/// Asks a stream's content steering manifest again while its pieces download, as its
/// ``SteeringSchedule`` says, and hands each new priority to the stream's
/// ``StreamFailover``: the pieces that start after it go to its first location first.
///
/// ``run(_:)`` sleeps on the session's clock until a request is due, so a test moves it with
/// a manual clock. A request is tried once (no retries: the next is a `TTL` away), through
/// the content's session, so it carries the content's request options; one that fails, or
/// answers something other than a steering manifest, keeps the last good priority (the
/// manifest's own order before one loaded), is told to `onNote`, and never stops the
/// download.
struct SteeringReloader: Sendable {
  let session: ContentSession
  let failover: StreamFailover
  /// The location (DASH service location, HLS pathway) of each source of ``failover``, by
  /// its rank; nil for a source that names none.
  let locations: [String?]
  /// Told, from the reloading task, of a request that failed after one that did not (or
  /// the first one): a sentence for the log.
  var onNote: (@Sendable (String) -> Void)?

  /// Reloads until cancelled or the schedule makes no more requests (a 410).
  func run(_ start: SteeringSchedule) async {
    var schedule = start
    var measuredAt = (instant: session.clock.instant, bytes: failover.servedBytes)
    var failing = false
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
      let url = schedule.request(
        pathway: locations.indices.contains(first) ? locations[first] : nil,
        throughput: throughput)
      let manifest: SteeringSchedule.Manifest?
      do {
        let data = try await session.data(
          from: url, limit: SteeringSchedule.limit, destination: "", maximumAttempts: 1)
        manifest = SteeringSchedule.manifest(of: data, names: schedule.names)
      } catch {
        guard !Task.isCancelled else { return }
        schedule.didFail(error, at: session.clock.instant)
        if !failing { onNote?(Self.failureNote(url, error.description, schedule)) }
        failing = true
        continue
      }
      if manifest == nil, !failing {
        onNote?(Self.failureNote(url, "not a steering manifest of version 1", schedule))
      }
      failing = manifest == nil
      if schedule.didLoad(manifest, at: session.clock.instant) {
        failover.prefer(Self.order(of: locations, by: schedule.priority))
      }
    }
  }

  /// The source ranks of `locations` in `priority`'s order: those it names by their place
  /// in it, then the others in their own order.
  static func order(of locations: [String?], by priority: [String]) -> [Int] {
    let rank = { (source: Int) in
      locations[source].flatMap { priority.firstIndex(of: $0) } ?? priority.count
    }
    return locations.indices.sorted { (rank($0), $0) < (rank($1), $1) }
  }

  /// The log line of a steering request to `url` that failed for `reason`.
  static func failureNote(_ url: URL, _ reason: String, _ schedule: SteeringSchedule) -> String {
    let kept =
      schedule.priority.isEmpty
      ? "the manifest's own order of sources stays"
      : "the last priority (\(schedule.priority.joined(separator: ", "))) stays"
    return "content steering at \(url.redactedForDisplay) failed (\(reason)): " + kept
      + (schedule.due == nil ? "; no more steering requests" : "")
  }
}
