import DASHManifest
import Foundation
import OfflineHTTP

/// What a DASH presentation offers, for `offline info`: per Period, its AdaptationSets by
/// kind (video, audio, text) with their Representations, the duration, and the key systems
/// that protect it; read from the manifest alone.
package struct DASHInfo: Sendable {
  /// One Representation.
  public struct RepresentationInfo: Sendable, Equatable {
    /// `@id`.
    public var id: String
    /// `@bandwidth` in bits per second; nil when the manifest does not say (unknown).
    public var bandwidth: Int?
    /// `@width`x`@height`, when given.
    public var resolution: String?
    /// `@codecs`, when given.
    public var codecs: String?
    /// `@mimeType`, when given.
    public var mimeType: String?
  }

  /// One AdaptationSet.
  public struct AdaptationInfo: Sendable, Equatable {
    /// `video`, `audio`, `text` or `other` (never downloaded).
    public var kind: String
    /// `@lang`, when given.
    public var language: String?
    /// The values of its `Role` descriptors (`main`, `alternate`, `subtitle`, …).
    public var roles: [String]
    /// The Representations, lowest bandwidth first; those whose bandwidth is unknown last,
    /// in document order.
    public var representations: [RepresentationInfo]
  }

  /// One Period.
  public struct PeriodInfo: Sendable, Equatable {
    /// `@id`, when given.
    public var id: String?
    /// Its start in seconds, when known.
    public var start: Double?
    /// Its duration in seconds, when known.
    public var duration: Double?
    /// The AdaptationSets, in document order.
    public var sets: [AdaptationInfo]
  }

  /// The Periods, in order.
  public var periods: [PeriodInfo]
  /// The presentation's duration in seconds (0 when the manifest does not say).
  public var duration: Double
  /// The key systems (`Widevine`, `PlayReady`, or the scheme's URI) named by its
  /// `ContentProtection` descriptors; empty when clear. Protected content cannot be stored.
  public var protection: [String]
  /// Whether the presentation is live (`type="dynamic"`): it is recorded then, not downloaded.
  public var isLive: Bool
  /// The MPD's own `BaseURL`s in the order a download tries them before any steering
  /// (`defaultServiceLocation` first, then `dvb:priority`), each as `location url` (its
  /// `@serviceLocation` first when it has one); empty with fewer than two.
  public var sources: [String] = []
  /// The content steering server (`ContentSteering`'s text, as written) that orders
  /// ``sources`` while a download runs; nil when there is none.
  public var steeringServer: String?

  /// Fetches and reads the manifest at `url`. A host that cannot be resolved or connected
  /// to (directly or through the proxy) is answered at once, not tried again; a 503 or a
  /// cut connection is tried again as in a download.
  ///
  /// - Throws: ``Transfer/Error`` when it cannot be fetched, or `invalidMedia` (naming the
  ///   element) when it is not a valid MPD.
  public static func fetch(
    _ url: URL, transport: any HTTPTransporting, requestOptions: RequestOptions = RequestOptions()
  ) async throws(Transfer.Error) -> DASHInfo {
    // A person waits for the answer: a host that cannot be reached is not tried again.
    let session = ContentSession(
      url: url, transport: transport, requestOptions: requestOptions, retriesUnreachable: false)
    try session.checkOptions(destination: "")
    let data = try await session.data(
      from: url, limit: DASHDownload.manifestLimit, destination: "")
    return DASHInfo(try DASHDownload.parse(data, url: url, destination: ""))
  }

  /// The description of `mpd`.
  init(_ mpd: MPD) {
    periods = mpd.periods.enumerated().map { index, period in
      PeriodInfo(
        id: period.id, start: mpd.periodStart(at: index), duration: mpd.periodDuration(at: index),
        sets: period.adaptationSets.map { set in
          AdaptationInfo(
            kind: DASHTrack(set).rawValue, language: set.lang,
            roles: set.roles.compactMap(\.value),
            representations: set.representations.sorted {
              ($0.bandwidth ?? Int.max) < ($1.bandwidth ?? Int.max)
            }.map {
              let common = $0.common.inheriting(from: set.common)
              return RepresentationInfo(
                id: $0.id, bandwidth: $0.bandwidth,
                resolution: common.width.flatMap { w in common.height.map { "\(w)x\($0)" } },
                codecs: common.codecs, mimeType: common.mimeType)
            })
        })
    }
    duration =
      mpd.mediaPresentationDuration
      ?? mpd.periods.indices.reduce(0) { $0 + (mpd.periodDuration(at: $1) ?? 0) }
    protection = []
    for item in mpd.contentProtections {
      let name = item.keySystemName ?? item.schemeIdUri
      if !protection.contains(name) { protection.append(name) }
    }
    isLive = mpd.isLive
    steeringServer = mpd.contentSteering?.serverURL
    let ordered = mpd.steered(by: mpd.contentSteering?.defaultServiceLocations ?? [])
      .baseURLElements.enumerated().sorted {
        ($0.element.priority ?? BaseURL.defaultPriority, $0.offset)
          < ($1.element.priority ?? BaseURL.defaultPriority, $1.offset)
      }.map(\.element)
    if ordered.count > 1 {
      sources = ordered.map {
        [$0.serviceLocation, $0.url].compactMap { $0 }.joined(separator: " ")
      }
    }
  }
}
