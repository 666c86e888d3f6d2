#if canImport(CAVFormat)
  import CAVFormat

  /// Room for an MP4's `moov` box kept before its `mdat` (libavformat's `moov_size`), so
  /// the index is written in place at the end instead of by `faststart`'s second pass, which
  /// reads and rewrites the whole file to shift it (0.7 s of an 8 s export of 1.3 GB here; ffmpeg
  /// `-movflags +faststart` pays it too). The room left over becomes a `free` box.
  ///
  /// The size comes from the packets the tracks will have: the playlist's duration times each
  /// track's packet rate, a quarter more, at 48 bytes each (the sample tables take 12 to 21
  /// per packet: sizes, decode-time runs, composition offsets, sync samples, chunk offsets),
  /// plus 64 KiB for the rest. When a rate is unknown there is no reservation, and when the
  /// room turns out too small the muxer fails its trailer and the copy is made again with
  /// `faststart` (see ``Remuxer``).
  enum MoovReservation {
    /// Bytes per packet reserved: a worst case of the sample tables' entries.
    static let bytesPerPacket = 48.0
    /// Bytes reserved besides the tables: headers, codec records, edit lists, metadata.
    static let fixedBytes = 64 << 10

    /// The bytes to reserve for tracks whose packets come at `packetRates` a second, over
    /// `duration` seconds; nil when a rate or the duration is unknown.
    static func bytes(packetRates: [Double?], duration: Double) -> Int? {
      guard duration > 0, duration.isFinite else { return nil }
      var packets = 0.0
      for rate in packetRates {
        guard let rate, rate > 0, rate.isFinite else { return nil }
        packets += rate * duration
      }
      return Int(packets * 1.25 * bytesPerPacket) + fixedBytes
    }

    /// Packets a second of a demuxed stream: a video stream's frame rate (the larger of the
    /// average and the base rate, so that field-coded video is not undercounted), an audio
    /// stream's sample rate over its frame size (1024 samples for AAC when the demuxer does not
    /// say), at most 4 for subtitles; nil when the stream does not say.
    static func packetRate(of stream: UnsafeMutablePointer<AVStream>) -> Double? {
      let parameters = stream.pointee.codecpar.pointee
      switch parameters.codec_type {
      case AVMEDIA_TYPE_VIDEO:
        let rate = max(av_q2d(stream.pointee.avg_frame_rate), av_q2d(stream.pointee.r_frame_rate))
        return rate > 0 && rate < 1000 ? rate : nil
      case AVMEDIA_TYPE_AUDIO:
        let frame =
          parameters.frame_size > 0
          ? Double(parameters.frame_size)
          : parameters.codec_id == AV_CODEC_ID_AAC ? 1024 : 0
        guard frame > 0, parameters.sample_rate > 0 else { return nil }
        return Double(parameters.sample_rate) / frame
      case AVMEDIA_TYPE_SUBTITLE: return 4
      default: return nil
      }
    }
  }
#endif
