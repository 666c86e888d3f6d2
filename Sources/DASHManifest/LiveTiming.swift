import Foundation

/// The MPD attributes that time a live presentation (`type="dynamic"`, ISO/IEC 23009-1
/// §5.3.1.2 and §5.8.4.11): when its segments become available, how long they stay, and how
/// often the MPD changes.
///
/// ```swift
/// let mpd = try MPDParser.parse(data)
/// let reload = mpd.live.minimumUpdatePeriod ?? 2
/// ```
public struct LiveTiming: Sendable, Equatable {
  /// `@availabilityStartTime`: the wall-clock instant presentation time 0 of the first
  /// Period starts at; segment availability is counted from it.
  public var availabilityStartTime: Date?
  /// `@publishTime`: when this version of the MPD was made.
  public var publishTime: Date?
  /// `@minimumUpdatePeriod` in seconds: the MPD stays valid at least this long, so a client
  /// reloads it at that pace; nil when it does not change any more.
  public var minimumUpdatePeriod: Double?
  /// `@timeShiftBufferDepth` in seconds: how long a segment stays available after it became
  /// so; nil for as long as the presentation lasts.
  public var timeShiftBufferDepth: Double?
  /// `@suggestedPresentationDelay` in seconds: how far behind the live edge players play.
  public var suggestedPresentationDelay: Double?
  /// The `UTCTiming` elements, in document order: the preferred source first.
  public var utcTimings: [UTCTiming]

  /// Creates live timing attributes.
  public init(
    availabilityStartTime: Date? = nil, publishTime: Date? = nil,
    minimumUpdatePeriod: Double? = nil, timeShiftBufferDepth: Double? = nil,
    suggestedPresentationDelay: Double? = nil, utcTimings: [UTCTiming] = []
  ) {
    self.availabilityStartTime = availabilityStartTime
    self.publishTime = publishTime
    self.minimumUpdatePeriod = minimumUpdatePeriod
    self.timeShiftBufferDepth = timeShiftBufferDepth
    self.suggestedPresentationDelay = suggestedPresentationDelay
    self.utcTimings = utcTimings
  }
}
