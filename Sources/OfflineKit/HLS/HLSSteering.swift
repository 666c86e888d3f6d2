import Foundation
import HLSPlaylist

/// The content steering manifest of an HLS stream (RFC 8216bis §7.2): the JSON at the
/// master playlist's `EXT-X-CONTENT-STEERING` `SERVER-URI`, whose `PATHWAY-PRIORITY` orders
/// the pathways (CDNs) a client tries. Asked when a download starts; a manifest that does
/// not answer, is not JSON or names no pathway leaves the playlist's own order (its
/// `PATHWAY-ID` first). While the download runs it is asked again after its `TTL`, at its
/// `RELOAD-URI`, as the shared ``SteeringSchedule`` (HLS's ``SteeringSchedule/Names/hls``)
/// and ``SteeringReloader`` do for DASH too, and a new priority moves the pieces that have
/// not started yet to its first pathway. What is HLS's own is `PATHWAY-CLONES` (``Clone``);
/// a clone that first appears in a reload joins the running download (``HLSReloadClones``).
struct HLSSteering {
  /// What one steering manifest says: the keys HLS shares with DASH, and its clones.
  struct Manifest: Sendable, Equatable {
    /// `VERSION`, `TTL`, `RELOAD-URI` and `PATHWAY-PRIORITY`, read by the shared schedule.
    var steering: SteeringSchedule.Manifest
    /// `PATHWAY-CLONES`: the new pathways it makes (``Clone``).
    var clones: [Clone] = []
    /// A sentence for each malformed clone left out, for the log.
    var ignored: [String] = []

    /// `PATHWAY-PRIORITY`, at most 64 names, none empty, no repeats.
    var priority: [String] { steering.priority }
  }

  /// The manifest in `data`, its JSON parsed once: the shared keys as
  /// `SteeringSchedule.manifest(of:names:)` reads them with HLS's names, the clones as
  /// ``clones(of:)`` does; nil when it is not a steering manifest of version 1.
  static func manifest(of data: Data) -> Manifest? {
    guard let object = SteeringSchedule.object(of: data),
      let steering = SteeringSchedule.manifest(in: object, names: .hls)
    else { return nil }
    let (clones, ignored) = clones(of: object["PATHWAY-CLONES"])
    return Manifest(steering: steering, clones: clones, ignored: ignored)
  }

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
    log: (String) -> Void = { _ in }
  ) async -> (ParsedPlaylist, SteeringSchedule?) {
    guard case .master(let master) = entry.playlist, let steering = master.contentSteering,
      let server = try? HLSURI.resolve(steering.serverURI, against: url, what: "steering")
    else { return (entry, nil) }
    var schedule = SteeringSchedule(serverURL: server, names: .hls)
    guard
      let answer = await SteeringReloader.ask(
        &schedule, pathway: master.pathwayOrder.first, throughput: nil, session: session,
        log: log)
    else { return (entry, schedule) }
    let (clones, ignoredClones) = clones(of: answer.object["PATHWAY-CLONES"])
    for line in ignoredClones { log("content steering: \(line)") }
    let (cloned, ignored) = cloned(master, by: clones, playlistURL: url, manifestURL: server)
    for line in ignored { log("content steering: \(line)") }
    var result = entry
    result.playlist = .master(cloned.steered(by: schedule.priority))
    return (result, schedule)
  }
}
