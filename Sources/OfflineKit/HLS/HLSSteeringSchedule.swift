import Foundation

/// When and where a content steering manifest is asked next, and the last good priority
/// (RFC 8216bis §7.2, the Content Steering specification): a value, handed the time, so
/// its decisions are tested without waiting.
///
/// After a manifest loads, the next request is due `TTL` seconds later
/// (``defaultTTL`` when it names none), at its `RELOAD-URI` resolved against the URL it was
/// loaded from (the same URL when it names none). A request that fails, or a body that is
/// not a steering manifest, keeps the last good priority and asks again one `TTL` later
/// (after `Retry-After` when the server sent one); a 410 ends the reloads, as the
/// specification says. Each request carries `_HLS_pathway` (the pathway in use) and, once
/// known, `_HLS_throughput` (bits per second).
struct HLSSteeringSchedule: Sendable, Equatable {
  /// The `TTL` of a manifest that names none.
  static let defaultTTL: Duration = .seconds(300)
  /// The shortest wait between two requests, whatever a manifest says.
  static let shortestTTL: Duration = .seconds(1)

  /// The URL asked next, before the query parameters are added.
  private(set) var url: URL
  /// The last good `PATHWAY-PRIORITY`; empty before one loaded.
  private(set) var priority: [String] = []
  /// When the next request is due; nil when no more are made (a 410).
  private(set) var due: ContinuousClock.Instant?
  /// The `TTL` of the last good manifest.
  private(set) var ttl: Duration = defaultTTL

  /// A schedule whose first request goes to `serverURL` (the tag's `SERVER-URI`).
  init(serverURL: URL) {
    url = serverURL
  }

  /// Whether a request is due at `now`.
  func isDue(at now: ContinuousClock.Instant) -> Bool {
    due.map { now >= $0 } ?? false
  }

  /// The URL to ask: ``url`` with `_HLS_pathway` set to `pathway` and, when given,
  /// `_HLS_throughput` to `throughput` (replacing any the URL had).
  func request(pathway: String?, throughput: Int?) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      return url
    }
    var items = (components.queryItems ?? []).filter {
      $0.name != "_HLS_pathway" && $0.name != "_HLS_throughput"
    }
    if let pathway { items.append(URLQueryItem(name: "_HLS_pathway", value: pathway)) }
    if let throughput {
      items.append(URLQueryItem(name: "_HLS_throughput", value: String(throughput)))
    }
    components.queryItems = items.isEmpty ? nil : items
    return components.url ?? url
  }

  /// Takes in what the request to ``url`` answered at `now`: a manifest (its priority,
  /// `TTL` and `RELOAD-URI` from now on), or nil for a body that is not one (as a failure).
  ///
  /// - Returns: Whether the priority changed.
  @discardableResult
  mutating func didLoad(_ manifest: HLSSteering.Manifest?, at now: ContinuousClock.Instant)
    -> Bool
  {
    guard let manifest else {
      due = now + ttl
      return false
    }
    ttl = max(manifest.ttl ?? Self.defaultTTL, Self.shortestTTL)
    if let reload = manifest.reloadURI,
      let next = try? HLSURI.resolve(reload, against: url, what: "steering")
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
    if code == 410 {
      due = nil
    } else {
      due = now + max(retryAfter ?? ttl, Self.shortestTTL)
    }
  }
}
