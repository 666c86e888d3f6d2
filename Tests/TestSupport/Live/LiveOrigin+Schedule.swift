import Foundation

extension LiveOrigin {
  /// When a ``LiveOrigin`` publishes its segments, how long they stay, and what goes wrong.
  ///
  /// Time runs from ``LiveOrigin/start()``: ``initialSegments`` are in the window at once,
  /// then one more every ``interval`` seconds (plus the ``stalls``) until ``segmentCount``
  /// are out.
  public struct Schedule: Sendable {
    /// Segments the origin publishes in all (each is one segment of the ffmpeg fixture).
    public var segmentCount: Int
    /// Segments listed by the playlist at once (the sliding window).
    public var window: Int
    /// Segments in the window when the origin starts.
    public var initialSegments: Int
    /// Seconds between two new segments; the playlist's target duration stays 1 s, so a
    /// value below 1 runs faster than real time.
    public var interval: Double
    /// The media-sequence number of the first segment.
    public var firstSequence: Int
    /// Whether the last segment comes with `EXT-X-ENDLIST`; false leaves the playlist
    /// answering unchanged after it (a stream that ends by silence).
    public var endsWithEndList: Bool
    /// Numbers listed in the playlist whose segment is answered 404 (a dropped segment).
    public var dropped: Set<Int>
    /// After publishing number N, the playlist stays unchanged (still answering) for this
    /// many more seconds: a stall.
    public var stalls: [Int: Double]
    /// Numbers after which the playlist answers 503 for this many seconds: a failing origin.
    public var outages: [Int: Double]
    /// How many numbers a segment stays fetchable after it left the window, as CDNs keep
    /// them a little.
    public var keptAfterWindow: Int
    /// After publishing this number the stream moves to `/v2/` (an expired token): the old
    /// playlist and segment paths answer 403 from then on, and ``LiveOrigin/url`` is the
    /// new playlist's.
    public var movesAfter: Int?
    /// When set, segments are sent at about this many bytes per second (a slow origin).
    public var segmentBytesPerSecond: Int?
    /// When set, segment requests beyond this many at once are answered 503 at once,
    /// counted in the server's `overloadRefusals`.
    public var segmentCapacity: Int?

    /// A schedule; by default a window of 6 one-second segments of which 3 are there at the
    /// start, one more a second, ending with `EXT-X-ENDLIST`, with no fault.
    public init(
      segmentCount: Int, window: Int = 6, initialSegments: Int = 3, interval: Double = 1,
      firstSequence: Int = 100, endsWithEndList: Bool = true, dropped: Set<Int> = [],
      stalls: [Int: Double] = [:], outages: [Int: Double] = [:], keptAfterWindow: Int = 2,
      movesAfter: Int? = nil, segmentBytesPerSecond: Int? = nil, segmentCapacity: Int? = nil
    ) {
      self.segmentCount = max(1, segmentCount)
      self.window = max(1, window)
      self.initialSegments = min(max(1, initialSegments), max(1, segmentCount))
      self.interval = max(0.05, interval)
      self.firstSequence = firstSequence
      self.endsWithEndList = endsWithEndList
      self.dropped = dropped
      self.stalls = stalls
      self.outages = outages
      self.keptAfterWindow = max(0, keptAfterWindow)
      self.movesAfter = movesAfter
      self.segmentBytesPerSecond = segmentBytesPerSecond
      self.segmentCapacity = segmentCapacity
    }

    /// Every number the origin publishes, in order.
    public var sequences: ClosedRange<Int> { firstSequence...(firstSequence + segmentCount - 1) }

    /// The longest the schedule can run, in seconds: every interval, stall and outage.
    var longest: Double {
      Double(segmentCount) * interval + stalls.values.reduce(0, +) + outages.values.reduce(0, +)
    }
  }
}
