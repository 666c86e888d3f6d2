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
    return Manifest(
      ttl: ttl.map { .milliseconds(Int64($0 * 1000)) },
      reloadURI: (object["RELOAD-URI"] as? String).flatMap { $0.isEmpty ? nil : $0 },
      priority: priority)
  }

  /// The pathways of `data` in priority order: its `PATHWAY-PRIORITY` strings, at most 64;
  /// empty when it is not a steering manifest of version 1.
  static func priority(of data: Data) -> [String] { manifest(of: data)?.priority ?? [] }

  /// `entry` steered by its steering manifest when it is a master playlist with a
  /// `SERVER-URI` over http(s) (a `data:` URI or another scheme is not followed), with the
  /// schedule of the manifest's reloads; `entry` as it is and no schedule otherwise. One
  /// try, no retries: the order only says which source goes first, and a manifest that did
  /// not answer is asked again after the default `TTL`.
  static func steered(_ entry: ParsedPlaylist, from url: URL, session: ContentSession) async
    -> (ParsedPlaylist, HLSSteeringSchedule?)
  {
    guard case .master(let master) = entry.playlist, let steering = master.contentSteering,
      let server = try? HLSURI.resolve(steering.serverURI, against: url, what: "steering")
    else { return (entry, nil) }
    var schedule = HLSSteeringSchedule(serverURL: server)
    let data: Data
    do {
      data = try await session.data(
        from: server, limit: limit, destination: "", maximumAttempts: 1)
    } catch {
      schedule.didFail(error, at: session.clock.instant)
      return (entry, schedule)
    }
    schedule.didLoad(manifest(of: data), at: session.clock.instant)
    var result = entry
    result.playlist = .master(master.steered(by: schedule.priority))
    return (result, schedule)
  }
}
