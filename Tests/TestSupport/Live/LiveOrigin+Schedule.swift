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
    /// With ``endsWithEndList``, `EXT-X-ENDLIST` comes this many seconds after the last
    /// segment rather than with it (an origin that closes the playlist a moment later).
    public var endListAfter: Double?
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
    /// After publishing this number the origin publishes nothing more (the playlist still
    /// answers, unchanged) until ``LiveOrigin/release()``: a test looks at a recording that
    /// surely goes on, however loaded the machine.
    public var holdsAfter: Int?
    /// When set, segments are sent at about this many bytes per second (a slow origin).
    public var segmentBytesPerSecond: Int?
    /// When set, segment requests beyond this many at once are answered 503 at once,
    /// counted in the server's `overloadRefusals`.
    public var segmentCapacity: Int?
    /// Numbers at which the encoder starts over (its timestamps reset): that segment and
    /// those after it are the fixture's segments from its first again, and the playlist
    /// puts `EXT-X-DISCONTINUITY` before it. Once such a segment has left the window,
    /// `EXT-X-DISCONTINUITY-SEQUENCE` counts its tag (RFC 8216 §6.2.2).
    public var restarts: Set<Int>
    /// What the segments are: MPEG-TS, or fragmented MP4 after an init section
    /// (`EXT-X-MAP`, the `HLSFixture.fmp4` encode: 320x180 with a tone).
    public var media: Media
    /// For fragmented MP4, the numbers from which the playlist names another init section
    /// (`/init1.mp4`, `/init2.mp4`…, the same bytes): an `EXT-X-MAP` change.
    public var mapChanges: Set<Int>
    /// When set, segments are encrypted with AES-128, a new key every this many segments
    /// (`/key0.key`, `/key1.key`…), the IV left to each segment's media-sequence number.
    public var segmentsPerKey: Int?
    /// With fragmented MP4 and ``segmentsPerKey``: whether the init sections are encrypted
    /// too (with key 0 and the IV ``initSectionIV``, declared before each `EXT-X-MAP`); by
    /// default they are clear, declared where no key is in effect.
    public var encryptsInitSection: Bool
    /// The IV of an encrypted init section, as the playlist writes it.
    public static let initSectionIV = "0x000102030405060708090A0B0C0D0E0F"

    /// What a live origin's segments are.
    public enum Media: Sendable {
      case transportStream
      case fragmentedMP4
    }

    /// A schedule; by default a window of 6 one-second segments of which 3 are there at the
    /// start, one more a second, ending with `EXT-X-ENDLIST`, with no fault.
    public init(
      segmentCount: Int, window: Int = 6, initialSegments: Int = 3, interval: Double = 1,
      firstSequence: Int = 100, endsWithEndList: Bool = true, dropped: Set<Int> = [],
      stalls: [Int: Double] = [:], outages: [Int: Double] = [:], keptAfterWindow: Int = 2,
      movesAfter: Int? = nil, holdsAfter: Int? = nil, segmentBytesPerSecond: Int? = nil,
      segmentCapacity: Int? = nil,
      restarts: Set<Int> = [], media: Media = .transportStream, mapChanges: Set<Int> = [],
      segmentsPerKey: Int? = nil, encryptsInitSection: Bool = false, endListAfter: Double? = nil
    ) {
      self.endListAfter = endListAfter
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
      self.holdsAfter = holdsAfter
      self.segmentBytesPerSecond = segmentBytesPerSecond
      self.segmentCapacity = segmentCapacity
      self.restarts = restarts
      self.media = media
      self.mapChanges = mapChanges
      self.segmentsPerKey = segmentsPerKey.map { max(1, $0) }
      self.encryptsInitSection = encryptsInitSection
    }

    /// The path of the init section of segment `sequence`, nil for MPEG-TS.
    func mapPath(of sequence: Int) -> String? {
      guard media == .fragmentedMP4 else { return nil }
      return "/init\(mapChanges.filter { $0 <= sequence }.count).mp4"
    }

    /// The index of the key segment `sequence` is encrypted with, nil when clear.
    func keyIndex(of sequence: Int) -> Int? {
      segmentsPerKey.map { (sequence - firstSequence) / $0 }
    }

    /// The fixture's segment that number `sequence` is: counted from the last restart at or
    /// before it, else from the first number.
    func fixtureIndex(of sequence: Int) -> Int {
      sequence - (restarts.filter { $0 <= sequence }.max() ?? firstSequence)
    }

    /// Every number the origin publishes, in order.
    public var sequences: ClosedRange<Int> { firstSequence...(firstSequence + segmentCount - 1) }

    /// The longest the schedule can run, in seconds: every interval, stall and outage.
    var longest: Double {
      Double(segmentCount) * interval + stalls.values.reduce(0, +) + outages.values.reduce(0, +)
        + (endListAfter ?? 0)
    }
  }
}
