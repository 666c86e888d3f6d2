import DASHManifest
import Foundation
import OfflineHTTP

/// DASH content steering for a download or a live recording (DASH-IF CTS 001, ISO/IEC 23009-1 5th edition): the
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
/// download never fails for it. With a `proxyServerURL`, every steering request goes to
/// that proxy, the steering server's URL (or the `RELOAD-URI` in force) carried as its `url`
/// parameter beside `_DASH_pathway` and `_DASH_throughput`
/// (``SteeringSchedule/request(to:asking:pathway:throughput:names:)``); a proxy that is not
/// an http(s) URL leaves the MPD's order with a note, as a bad server URL does. Requests go
/// through the content's session (its request options).
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
    let proxy: URL?
    switch Self.proxy(of: steering, manifestURL: manifestURL) {
    case .success(let url): proxy = url
    case .failure(let refusal):
      onNote?(refusal.reason + ": the MPD's order of service locations is kept")
      return (ordered, nil)
    }
    var schedule = SteeringSchedule(
      serverURL: server, names: .dash,
      due: steering.queryBeforeStart ? nil : session.clock.instant)
    schedule.proxy = proxy
    guard steering.queryBeforeStart else { return (ordered, schedule) }
    _ = await SteeringReloader.ask(
      &schedule, pathway: defaults.first, throughput: nil, session: session,
      log: { onNote?($0) })
    return (mpd.steered(by: startOrder(of: mpd, after: schedule)), schedule)
  }

  /// The order of service locations `mpd` is steered by from the start: the priority of
  /// `schedule`'s first answer when it has one, else the MPD's `defaultServiceLocation`.
  /// A live recording steers every MPD update by it (its sources keep their ranks), and
  /// a later answer reorders them through ``StreamFailover/prefer(_:)``.
  static func startOrder(of mpd: MPD, after schedule: SteeringSchedule?) -> [String] {
    if let priority = schedule?.priority, !priority.isEmpty { return priority }
    return mpd.contentSteering?.defaultServiceLocations ?? []
  }
}

extension DASHSteering {
  /// Why a `proxyServerURL` is not followed: a sentence for the log.
  struct Refusal: Error, Equatable {
    var reason: String
  }

  /// The proxy steering server of `steering`, resolved against `manifestURL`: nil when it
  /// names none; a ``Refusal`` when it is not an http(s) URL with a host or is longer than
  /// `MPD.ContentSteering.maximumURLLength`.
  static func proxy(of steering: MPD.ContentSteering, manifestURL: URL) -> Result<URL?, Refusal> {
    guard let written = steering.proxyServerURL else { return .success(nil) }
    let shown = "the MPD's steering proxy \"\(written.prefix(200))\""
    guard written.utf8.count <= MPD.ContentSteering.maximumURLLength else {
      return .failure(Refusal(reason: shown + " is longer than 8192 bytes"))
    }
    guard let url = URL(string: written, relativeTo: manifestURL)?.absoluteURL,
      url.isHTTPWithHost
    else {
      return .failure(Refusal(reason: shown + " is not an http or https URL"))
    }
    return .success(url)
  }
}
