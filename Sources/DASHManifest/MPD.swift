/// A Media Presentation Description (ISO/IEC 23009-1 §5.3.1): the root of a DASH manifest.
///
/// Parse one with `MPDParser`, list its segments with `SegmentResolver`, write it back (or an
/// offline copy made by `OfflineManifest`) with `MPDWriter`.
///
/// ```swift
/// let mpd = try MPDParser.parse(data)
/// if mpd.isLive { throw Refusal.live }
/// for period in mpd.periods { print(period.adaptationSets.count) }
/// ```
public struct MPD: Sendable, Equatable {
  /// `@type`: static (on demand) or dynamic (live).
  public var type: PresentationType
  /// `@profiles`, as written (a comma-separated list of URNs).
  public var profiles: String?
  /// `@mediaPresentationDuration` in seconds.
  public var mediaPresentationDuration: Double?
  /// `@minBufferTime` in seconds.
  public var minBufferTime: Double?
  /// `@maxSegmentDuration` in seconds.
  public var maxSegmentDuration: Double?
  /// The `BaseURL` elements, in document order, with their `dvb:` ranking; several are
  /// alternatives (``SegmentResolver/baseURLChoices(for:in:)``).
  public var baseURLElements: [BaseURL]
  /// The texts of ``baseURLElements``; the first one is used unless a choice says otherwise.
  /// Setting it drops their attributes.
  public var baseURLs: [String] {
    get { baseURLElements.map(\.url) }
    set { baseURLElements = newValue.map { BaseURL($0) } }
  }
  /// The periods, in document order.
  public var periods: [Period]
  /// When the segments of a live presentation are available and how often the MPD changes.
  public var live: LiveTiming
  /// The `ContentSteering` element: where to ask which service location to use; nil when
  /// absent or ignored (``MPDParser/parse(_:ignored:)`` says why).
  public var contentSteering: ContentSteering?

  /// Creates an MPD.
  public init(
    type: PresentationType = .static, profiles: String? = nil,
    mediaPresentationDuration: Double? = nil, minBufferTime: Double? = nil,
    maxSegmentDuration: Double? = nil, baseURLs: [String] = [], periods: [Period] = [],
    live: LiveTiming = LiveTiming()
  ) {
    self.type = type
    self.profiles = profiles
    self.mediaPresentationDuration = mediaPresentationDuration
    self.minBufferTime = minBufferTime
    self.maxSegmentDuration = maxSegmentDuration
    self.baseURLElements = baseURLs.map { BaseURL($0) }
    self.periods = periods
    self.live = live
  }

  /// Whether this is a live presentation (`type="dynamic"`): it is recorded, not downloaded.
  public var isLive: Bool { type == .dynamic }

  /// Every content protection descriptor of the presentation, at AdaptationSet and
  /// Representation level, so a downloader can refuse key systems it cannot store.
  public var contentProtections: [ContentProtection] {
    periods.flatMap { period in
      period.adaptationSets.flatMap { set in
        set.contentProtections + set.representations.flatMap(\.contentProtections)
      }
    }
  }
}
