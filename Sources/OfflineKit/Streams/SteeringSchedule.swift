import Foundation

/// When and where a content steering manifest is asked next, and the last good priority: a
/// value, handed the time, so its decisions are tested without waiting. One for both
/// protocols, their names as parameters (``Names``): DASH (DASH-IF CTS 001,
/// `SERVICE-LOCATION-PRIORITY`, `_DASH_pathway`, `_DASH_throughput`) and HLS (RFC 8216bis
/// §7.2 and the HLS Content Steering specification, `PATHWAY-PRIORITY`, `_HLS_pathway`,
/// `_HLS_throughput`).
///
/// After a manifest loads, the next request is due `TTL` seconds later (``defaultTTL`` when
/// it names none), at its `RELOAD-URI` resolved against the URL it was loaded from (the
/// same URL when it names none). A request that fails, or a body that is not a steering
/// manifest, keeps the last good priority and asks again one `TTL` later (after
/// `Retry-After` when the server sent one); a 410 ends the reloads. A `RELOAD-URI` that is
/// not http(s) is not followed (the previous URL stays). A run of failures is logged once,
/// and so is the first good answer after it (``noteAnswer(from:failure:at:)``).
struct SteeringSchedule: Sendable, Equatable {
  /// The names a protocol gives the manifest's priority list and the request's parameters.
  struct Names: Sendable, Equatable {
    /// The manifest's priority key (`SERVICE-LOCATION-PRIORITY`).
    var priorityKey: String
    /// The parameter naming the location in use (`_DASH_pathway`).
    var pathwayParameter: String
    /// The parameter carrying the measured throughput in bits per second (`_DASH_throughput`).
    var throughputParameter: String

    /// DASH's names (DASH-IF CTS 001).
    static let dash = Names(
      priorityKey: "SERVICE-LOCATION-PRIORITY", pathwayParameter: "_DASH_pathway",
      throughputParameter: "_DASH_throughput")
    /// HLS's names (RFC 8216bis §7.2).
    static let hls = Names(
      priorityKey: "PATHWAY-PRIORITY", pathwayParameter: "_HLS_pathway",
      throughputParameter: "_HLS_throughput")
  }

  /// What one steering manifest says.
  struct Manifest: Sendable, Equatable {
    /// `TTL`: how long until it is asked again; nil when absent or not a positive number.
    var ttl: Duration?
    /// `RELOAD-URI`, as written (relative to the manifest's own URL).
    var reloadURI: String?
    /// The priority list, at most ``SteeringSchedule/maximumLocations`` names, none empty,
    /// no repeats.
    var priority: [String]
  }

  /// The `TTL` of a manifest that names none.
  static let defaultTTL: Duration = .seconds(300)
  /// The shortest wait between two requests, whatever a manifest says.
  static let shortestTTL: Duration = .seconds(1)
  /// The largest steering manifest read.
  static let limit = 64 << 10
  /// The most names of a priority list kept.
  static let maximumLocations = 64

  /// The protocol's names.
  let names: Names
  /// The URL asked next, before the query parameters are added.
  private(set) var url: URL
  /// The proxy steering server every request goes to, carrying ``url`` as its `url`
  /// parameter (DASH's `ContentSteering@proxyServerURL`); nil to ask ``url`` itself.
  var proxy: URL?
  /// The last good priority; empty before one loaded.
  private(set) var priority: [String] = []
  /// When the next request is due; nil when no more are made (a 410).
  private(set) var due: ContinuousClock.Instant?
  /// The `TTL` of the last good manifest.
  private(set) var ttl: Duration = defaultTTL
  /// Whether the last answer noted (``noteAnswer(from:failure:at:)``) was a failure: a run
  /// of failures whose first one was logged.
  private(set) var isFailing = false

  /// A schedule whose first request goes to `serverURL`, due at `due` (nil: not planned
  /// yet, as before a first request made at once).
  init(serverURL: URL, names: Names, due: ContinuousClock.Instant? = nil) {
    url = serverURL
    self.names = names
    self.due = due
  }

  /// The manifest in `data`, read with `names`; nil when it is not a JSON object of
  /// `VERSION` 1 with a non-empty priority list of strings. A `TTL` that is not a positive
  /// number is ignored (the default applies), and so is a `RELOAD-URI` that is not a string.
  static func manifest(of data: Data, names: Names) -> Manifest? {
    object(of: data).flatMap { manifest(in: $0, names: names) }
  }

  /// The JSON object in `data`; nil when it is not JSON or not an object. Parsed once, then
  /// read by `manifest(in:names:)` and by what a protocol adds (HLS's
  /// `PATHWAY-CLONES`).
  static func object(of data: Data) -> [String: Any]? {
    try? JSONSerialization.jsonObject(with: data) as? [String: Any]
  }

  /// The manifest a parsed JSON `object` holds, read with `names`, by the rules of
  /// `manifest(of:names:)` for bytes.
  static func manifest(in object: [String: Any], names: Names) -> Manifest? {
    guard (object["VERSION"] as? Double) == 1,
      let list = object[names.priorityKey] as? [Any]
    else { return nil }
    var priority: [String] = []
    for case let name as String in list where !name.isEmpty && !priority.contains(name) {
      priority.append(name)
      if priority.count == maximumLocations { break }
    }
    guard !priority.isEmpty else { return nil }
    let ttl = (object["TTL"] as? Double).flatMap { $0 > 0 && $0 < 1e9 ? $0 : nil }
    return Manifest(
      ttl: ttl.map { .milliseconds(Int64($0 * 1000)) },
      reloadURI: (object["RELOAD-URI"] as? String).flatMap { $0.isEmpty ? nil : $0 },
      priority: priority)
  }

  /// The URL to ask: ``url`` with the pathway parameter set to `pathway` and, when given,
  /// the throughput parameter to `throughput` (replacing any the URL had); through
  /// ``proxy`` when there is one (`request(to:asking:pathway:throughput:names:)`).
  func request(pathway: String?, throughput: Int?) -> URL {
    if let proxy {
      return Self.request(
        to: proxy, asking: url, pathway: pathway, throughput: throughput, names: names)
    }
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      return url
    }
    var items = (components.queryItems ?? []).filter {
      $0.name != names.pathwayParameter && $0.name != names.throughputParameter
    }
    if let pathway { items.append(URLQueryItem(name: names.pathwayParameter, value: pathway)) }
    if let throughput {
      items.append(URLQueryItem(name: names.throughputParameter, value: String(throughput)))
    }
    components.queryItems = items.isEmpty ? nil : items
    return components.url ?? url
  }

  /// Takes in what the request to ``url`` answered at `now`: a manifest (its priority,
  /// `TTL` and `RELOAD-URI` from now on), or nil for a body that is not one (as a failure).
  ///
  /// - Returns: Whether the priority changed.
  @discardableResult
  mutating func didLoad(_ manifest: Manifest?, at now: ContinuousClock.Instant) -> Bool {
    guard let manifest else {
      due = now + ttl
      return false
    }
    ttl = max(manifest.ttl ?? Self.defaultTTL, Self.shortestTTL)
    if let reload = manifest.reloadURI,
      let next = URL(string: reload, relativeTo: url)?.absoluteURL, next.isHTTPWithHost
    {
      url = next
    }
    due = now + ttl
    let changed = manifest.priority != priority
    priority = manifest.priority
    return changed
  }

  /// Takes in a request that failed at `now` with `error`: the priority stays; the next
  /// request is one `TTL` later (or after `Retry-After`), none after a 410.
  mutating func didFail(_ error: Transfer.Error, at now: ContinuousClock.Instant) {
    guard case .status(let code, let retryAfter) = error.kind else {
      due = now + ttl
      return
    }
    due = code == 410 ? nil : now + max(retryAfter ?? ttl, Self.shortestTTL)
  }

  /// The log line for the answer from `url` just taken in at `now` (``didLoad(_:at:)`` or
  /// ``didFail(_:at:)``), or nil when it says nothing new: the first failure of a run
  /// (`failure` says why) and the first good answer after a run are logged, the failures
  /// between them are not. A failure's line names the URL (redacted), the reason, what
  /// stays, and when the manifest is asked next or that no more requests are made.
  mutating func noteAnswer(from url: URL, failure: String?, at now: ContinuousClock.Instant)
    -> String?
  {
    guard let failure else {
      defer { isFailing = false }
      return isFailing
        ? "content steering: the manifest at \(url.redactedForDisplay) loads again;"
          + " its priority (\(priority.joined(separator: ", "))) applies" : nil
    }
    defer { isFailing = true }
    guard !isFailing else { return nil }
    let kept =
      priority.isEmpty
      ? "the stream's own order of sources stays"
      : "the last good priority (\(priority.joined(separator: ", "))) stays"
    let next =
      due.map {
        "asked again in " + String(format: "%g", now.duration(to: $0) / .seconds(1)) + " s"
      }
      ?? "no more steering requests are made"
    return "content steering: the manifest at \(url.redactedForDisplay) did not load"
      + " (\(failure)); \(kept); \(next)"
  }
}
