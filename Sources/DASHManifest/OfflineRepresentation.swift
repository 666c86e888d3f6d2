/// The local files of one Representation, for `OfflineManifest`: names relative to the
/// offline manifest, chosen by the caller. Name the media files so they count up by one
/// (`v/s00000.m4s`, `v/s00001.m4s`…) and give their durations: the offline manifest then
/// describes them as a `SegmentTemplate`, the form ffmpeg 5.1 decodes to the end.
public struct OfflineRepresentation: Sendable, Equatable {
  /// One media segment's file.
  public struct Segment: Sendable, Equatable {
    /// The file's name relative to the manifest, such as `v1/seg-00001.m4s`.
    public var name: String
    /// The segment's start in `timescale` units, when known.
    public var time: UInt64?
    /// The segment's duration in `timescale` units, when known.
    public var duration: UInt64?

    /// Creates a segment file.
    public init(name: String, time: UInt64? = nil, duration: UInt64? = nil) {
      self.name = name
      self.time = time
      self.duration = duration
    }
  }

  /// The initialization section's file, or nil when there is none.
  public var initialization: String?
  /// The media segments' files, in order.
  public var segments: [Segment]
  /// Units per second of the segments' times and durations.
  public var timescale: UInt64
  /// `@presentationTimeOffset`, in `timescale` units.
  public var presentationTimeOffset: Int64

  /// Creates the files of a Representation.
  public init(
    initialization: String?, segments: [Segment], timescale: UInt64 = 1,
    presentationTimeOffset: Int64 = 0
  ) {
    self.initialization = initialization
    self.segments = segments
    self.timescale = timescale
    self.presentationTimeOffset = presentationTimeOffset
  }

  /// The files of a listing `SegmentResolver` made: `segmentNames[i]` holds
  /// `listing.segments[i]`, with its time and duration.
  ///
  /// - Throws: `MPDError` (`malformedValue`) when the counts differ, when the listing
  ///   has an initialization section and `initialization` is nil, or when it still has an
  ///   index to apply.
  public init(_ listing: RepresentationSegments, initialization: String?, segmentNames: [String])
    throws
  {
    guard listing.index == nil else {
      throw MPDError(
        .malformedValue, at: "offline",
        "The listing still has an index to read; apply it (applying(_:)) first.")
    }
    guard segmentNames.count == listing.segments.count else {
      throw MPDError(
        .malformedValue, at: "offline",
        "\(segmentNames.count) names for \(listing.segments.count) segments.")
    }
    guard listing.initialization == nil || initialization != nil else {
      throw MPDError(.malformedValue, at: "offline", "The initialization section has no name.")
    }
    self.initialization = initialization
    self.segments = zip(listing.segments, segmentNames).map { segment, name in
      Segment(name: name, time: segment.time, duration: segment.duration)
    }
    self.timescale = listing.timescale
    self.presentationTimeOffset = listing.presentationTimeOffset
  }
}
