import Foundation
import OfflineHTTP

/// Asks an HLS stream's content steering manifest again while its pieces download, as its
/// ``HLSSteeringSchedule`` says, and hands each new `PATHWAY-PRIORITY` to the stream's
/// ``StreamFailover``: the pieces that start after it go to its first pathway first.
///
/// ``run(_:)`` sleeps on the session's clock until a request is due, so a test moves it with
/// a manual clock. A request is tried once (no retries: the next is a `TTL` away), through
/// the content's session; one that fails, or answers something other than a steering
/// manifest, keeps the last good priority and never stops the download; it goes to `log`
/// with its URL (redacted) and reason, and the next request is one `TTL` of the last good
/// manifest later (``HLSSteeringSchedule/didFail(_:at:)``).
struct HLSSteeringReloader: Sendable {
  let session: ContentSession
  let failover: StreamFailover
  /// The pathway of each source of ``failover``, by its rank.
  let pathways: [String]
  /// Where a failed reload is told, a line each.
  var log: @Sendable (String) -> Void = { _ in }

  /// Reloads until cancelled or the schedule makes no more requests (a 410).
  func run(_ start: HLSSteeringSchedule) async {
    var schedule = start
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
      let url = schedule.request(
        pathway: pathways.indices.contains(failover.firstPreferred)
          ? pathways[failover.firstPreferred] : nil,
        throughput: throughput)
      do {
        let data = try await session.data(
          from: url, limit: HLSSteering.limit, destination: "", maximumAttempts: 1)
        let manifest = HLSSteering.manifest(of: data)
        if schedule.didLoad(manifest, at: session.clock.instant) {
          failover.prefer(Self.order(of: pathways, by: schedule.priority))
        }
        if manifest == nil {
          log(
            HLSSteering.failureLine(
              url, reason: "the answer is not a steering manifest", schedule: schedule,
              at: session.clock.instant))
        }
      } catch {
        guard !Task.isCancelled else { return }
        schedule.didFail(error, at: session.clock.instant)
        log(
          HLSSteering.failureLine(
            url, reason: error.description, schedule: schedule, at: session.clock.instant))
      }
    }
  }

  /// The source ranks of `pathways` in `priority`'s order: those it names by their place in
  /// it, then the others in their own order.
  static func order(of pathways: [String], by priority: [String]) -> [Int] {
    let rank = { (source: Int) in priority.firstIndex(of: pathways[source]) ?? priority.count }
    return pathways.indices.sorted { (rank($0), $0) < (rank($1), $1) }
  }
}
