import DASHManifest
import Foundation
import OfflineHTTP

/// DASH content steering for a download (DASH-IF CTS 001, ISO/IEC 23009-1 5th edition): the
/// MPD's `ContentSteering` names a server whose JSON `SERVICE-LOCATION-PRIORITY` orders the
/// service locations (`BaseURL@serviceLocation`, one per CDN). The segments come from the
/// first location it names, and from the next ones, in its order, when a source fails
/// (``StreamFailover``).
///
/// Before the server has answered, the MPD's own order holds: its `defaultServiceLocation`
/// first, then `dvb:priority`. With `queryBeforeStart="true"` the server is asked once
/// before the segments are listed; otherwise the download starts in the MPD's order and
/// asks at once beside it (``SteeringReloader``), moving the pieces that have not started
/// yet when the answer comes. A server that fails, answers something other than a steering
/// manifest, or is not http(s) leaves the MPD's order, with a note for the log; the
/// download never fails for it. `proxyServerURL` is kept in the model but not used: the
/// server is asked directly, through the content's session (its request options).
enum DASHSteering {
  /// `mpd` ordered for the download, with the schedule of the steering requests to come
  /// (nil when there are none: no `ContentSteering`, or one that cannot be followed).
  /// `onNote` hears, from the calling task, why steering was ignored (each of `ignored`,
  /// what the parser left out) or failed.
  static func steered(
    _ mpd: MPD, ignored: [String] = [], manifestURL: URL, session: ContentSession,
    onNote: (@Sendable (String) -> Void)?
  ) async -> (MPD, SteeringSchedule?) {
    for reason in ignored { onNote?("in the DASH manifest, \(reason)") }
    guard let steering = mpd.contentSteering else { return (mpd, nil) }
    let defaults = steering.defaultServiceLocations
    let ordered = mpd.steered(by: defaults)
    guard
      let server = URL(string: steering.serverURL, relativeTo: manifestURL)?.absoluteURL,
      server.isHTTPWithHost
    else {
      onNote?(
        "the MPD's steering server \"\(steering.serverURL.prefix(200))\" is not an http or"
          + " https URL: the MPD's order of service locations is kept")
      return (ordered, nil)
    }
    guard steering.queryBeforeStart else {
      return (
        ordered, SteeringSchedule(serverURL: server, names: .dash, due: session.clock.instant)
      )
    }
    var schedule = SteeringSchedule(serverURL: server, names: .dash)
    _ = await SteeringReloader.ask(
      &schedule, pathway: defaults.first, throughput: nil, session: session,
      log: { onNote?($0) })
    return (schedule.priority.isEmpty ? ordered : mpd.steered(by: schedule.priority), schedule)
  }
}
