import DASHManifest
import Foundation

extension DASHDownload {
  /// The sources of the Representation at `path` besides the first of its `choices`: their
  /// listings (``alternateListings(_:of:_:_:_:at:)``), and, when there is any, the base URL
  /// and the `@serviceLocation` of every source, the first included (the names of a
  /// ``StreamFailover`` and the locations a ``SteeringReloader`` orders); all empty when
  /// there is none. With `now`, `mpd` is live and the listings are of what is available
  /// then. Shared by a VOD download and a live recording.
  static func otherSources(
    of listing: RepresentationSegments, _ path: RepresentationPath, in mpd: MPD,
    choices: [BaseURLChoice], _ url: URL, at now: Date? = nil
  ) -> (listings: [RepresentationSegments], names: [URL], locations: [String?]) {
    let resolver = SegmentResolver()
    let first = choices.first ?? .first
    let others = alternateListings(choices.dropFirst(), of: listing, path, mpd, url, at: now)
    guard !others.isEmpty,
      let primary = try? resolver.baseURL(for: path, in: mpd, manifestURL: url, choice: first)
    else { return (others.map(\.listing), [], []) }
    let locations = ([first] + others.map(\.choice)).map {
      resolver.serviceLocation(of: $0, for: path, in: mpd)
    }
    return (others.map(\.listing), [primary] + others.map(\.base), locations)
  }

  /// Starts asking the steering server (again) while the pieces download
  /// (``SteeringReloader``), when `schedule` plans a request and `locations` (the service
  /// location of each of `failover`'s sources) name more than one; nil otherwise. Cancel
  /// the task when the pieces are in. Shared by a VOD download and a live recording.
  func steeringReloads(
    _ schedule: SteeringSchedule?, locations: [String?], failover: StreamFailover
  ) -> Task<Void, Never>? {
    guard let schedule, schedule.due != nil,
      locations.count == failover.names.count,
      Set(locations.compactMap { $0 }).count > 1
    else { return nil }
    let reloader = SteeringReloader(
      session: session, failover: failover, locations: locations, log: log)
    return Task { await reloader.run(schedule) }
  }
}
