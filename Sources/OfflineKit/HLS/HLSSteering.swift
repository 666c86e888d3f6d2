import Foundation
import HLSPlaylist

/// The content steering manifest of an HLS stream (RFC 8216bis §7.2): the JSON at the
/// master playlist's `EXT-X-CONTENT-STEERING` `SERVER-URI`, whose `PATHWAY-PRIORITY` orders
/// the pathways (CDNs) a client tries. Asked when a download starts; a manifest that does
/// not answer, is not JSON or names no pathway leaves the playlist's own order (its
/// `PATHWAY-ID` first). While the download runs it is asked again after its `TTL`, at its
/// `RELOAD-URI` (``HLSSteeringSchedule``, ``HLSSteeringReloader``), and a new priority moves
/// the pieces that have not started yet to its first pathway.
struct HLSSteering {
  /// What one steering manifest says.
  struct Manifest: Sendable, Equatable {
    /// `TTL`: how long until it is asked again; ``HLSSteeringSchedule/defaultTTL`` when absent.
    var ttl: Duration?
    /// `RELOAD-URI`, as written (relative to the manifest's own URL).
    var reloadURI: String?
    /// `PATHWAY-PRIORITY`, at most 64 names, none empty.
    var priority: [String]
    /// `PATHWAY-CLONES`: the new pathways it makes (``Clone``).
    var clones: [Clone] = []
    /// A sentence for each malformed clone left out, for the log.
    var ignored: [String] = []
  }

  /// The largest steering manifest read.
  static let limit = 64 << 10

  /// The manifest in `data`; nil when it is not a JSON object of `VERSION` 1 with a
  /// non-empty `PATHWAY-PRIORITY` list of strings. A `TTL` that is not a positive number is
  /// ignored (the default applies), and so is a `RELOAD-URI` that is not a string.
  static func manifest(of data: Data) -> Manifest? {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      (object["VERSION"] as? Int) == 1,
      let list = object["PATHWAY-PRIORITY"] as? [Any]
    else { return nil }
    let priority = Array(list.compactMap { $0 as? String }.filter { !$0.isEmpty }.prefix(64))
    guard !priority.isEmpty else { return nil }
    let ttl = (object["TTL"] as? Double).flatMap { $0 > 0 && $0 < 1e9 ? $0 : nil }
    let (clones, ignored) = clones(of: object["PATHWAY-CLONES"])
    return Manifest(
      ttl: ttl.map { .milliseconds(Int64($0 * 1000)) },
      reloadURI: (object["RELOAD-URI"] as? String).flatMap { $0.isEmpty ? nil : $0 },
      priority: priority, clones: clones, ignored: ignored)
  }

  /// The pathways of `data` in priority order: its `PATHWAY-PRIORITY` strings, at most 64;
  /// empty when it is not a steering manifest of version 1.
  static func priority(of data: Data) -> [String] { manifest(of: data)?.priority ?? [] }

  /// `entry` steered by its steering manifest when it is a master playlist with a
  /// `SERVER-URI` over http(s) (a `data:` URI or another scheme is not followed), with the
  /// schedule of the manifest's reloads; `entry` as it is and no schedule otherwise. The
  /// request carries `_HLS_pathway`, the pathway in use before the manifest answers (the
  /// tag's `PATHWAY-ID`, else the first variant's). The manifest's `PATHWAY-CLONES` add their
  /// pathways (``cloned(_:by:playlistURL:manifestURL:)``) before its `PATHWAY-PRIORITY`
  /// orders them all. One try, no retries: the order only says which source goes first, and
  /// a manifest that did not answer is asked again after the default `TTL`. What fails
  /// (the request, a body that is no manifest, a clone left out) goes to `log`.
  static func steered(
    _ entry: ParsedPlaylist, from url: URL, session: ContentSession,
    log: @Sendable (String) -> Void = { _ in }
  ) async -> (ParsedPlaylist, HLSSteeringSchedule?) {
    guard case .master(let master) = entry.playlist, let steering = master.contentSteering,
      let server = try? HLSURI.resolve(steering.serverURI, against: url, what: "steering")
    else { return (entry, nil) }
    var schedule = HLSSteeringSchedule(serverURL: server)
    let request = schedule.request(pathway: master.pathwayOrder.first, throughput: nil)
    let data: Data
    do {
      data = try await session.data(
        from: request, limit: limit, destination: "", maximumAttempts: 1)
    } catch {
      schedule.didFail(error, at: session.clock.instant)
      log(
        failureLine(
          request, reason: error.description, schedule: schedule, at: session.clock.instant))
      return (entry, schedule)
    }
    let manifest = manifest(of: data)
    schedule.didLoad(manifest, at: session.clock.instant)
    guard let manifest else {
      log(
        failureLine(
          request, reason: "the answer is not a steering manifest", schedule: schedule,
          at: session.clock.instant))
      return (entry, schedule)
    }
    for line in manifest.ignored { log("content steering: \(line)") }
    let (cloned, ignored) = cloned(
      master, by: manifest.clones, playlistURL: url, manifestURL: server)
    for line in ignored { log("content steering: \(line)") }
    var result = entry
    result.playlist = .master(cloned.steered(by: schedule.priority))
    return (result, schedule)
  }

  /// The log line of a steering request to `url` that failed for `reason`: the URL
  /// (redacted), the reason, and when it is asked again.
  static func failureLine(
    _ url: URL, reason: String, schedule: HLSSteeringSchedule, at now: ContinuousClock.Instant
  ) -> String {
    let next =
      schedule.due.map {
        "the last good pathway priority stays; asked again in "
          + String(format: "%g", now.duration(to: $0) / .seconds(1)) + " s"
      } ?? "it is not asked again"
    return "content steering: the manifest at \(url.redactedForDisplay) did not load (\(reason));"
      + " \(next)"
  }
}
