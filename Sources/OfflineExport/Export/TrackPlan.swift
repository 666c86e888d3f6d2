#if canImport(CAVFormat)
  import CAVFormat

  /// One stream of the offline copy chosen for the export: where it comes from, where it goes,
  /// and what was copied (the digests the check after writing compares).
  struct TrackPlan {
    /// The stream's index in the offline copy's demuxer.
    var inputIndex: Int
    /// Its index in the file written.
    var outputIndex: Int
    /// Video, audio or subtitles.
    var kind: ExportReport.Track.Kind
    /// The codec as libav names it.
    var codec: String
    /// The language written, when known.
    var language: String?
    /// Whether the track is marked default.
    var isDefault: Bool
    /// How the offline copy frames the stream's packets.
    var framing: PayloadFraming
    /// The offline copy's time base for the stream.
    var inputTimeBase: AVRational
    /// The written file's time base for the stream, once its header is written.
    var outputTimeBase = AVRational(num: 1, den: 1)
    /// The numbers ``PacketHashing`` gave the packets copied, in order.
    var sequences: [Int] = []
    /// The payload digest of every packet copied, in order, once the copy is done.
    var digests: [PayloadHasher.Digest] = []
    /// Payload bytes copied.
    var bytes: Int64 = 0
    /// Audio packets left out where a part's audio overlapped the next part's: their places
    /// among the stream's packets as read, counting from zero, ascending.
    var droppedIndices: [Int] = []

    /// The report's description of the track.
    var reportTrack: ExportReport.Track {
      ExportReport.Track(
        kind: kind, codec: codec, language: language, isDefault: isDefault,
        packets: digests.count, bytes: bytes, droppedAtDiscontinuities: droppedIndices.count)
    }
  }
#endif
