#if canImport(CAVFormat)
  import CAVFormat
  import XMLTree

  /// The one owner of a demuxer's `AVFormatContext`: opened from a path, closed on deinit.
  final class InputContainer {
    /// The demuxer; valid while this object lives.
    let context: UnsafeMutablePointer<AVFormatContext>
    /// Kept alive while libav may call the interrupt callback with it.
    private let cancellation: CancellationFlag

    /// Opens `path` with libav's demuxers, passing `options` (such as `allowed_extensions`).
    /// libav stops waiting on I/O once `cancellation` is raised.
    init(path: String, options: [String: String], cancellation: CancellationFlag)
      throws(ExportError)
    {
      self.cancellation = cancellation
      guard let fresh = avformat_alloc_context() else {
        throw LibAVCall.error(-12, "avformat_alloc_context")
      }
      fresh.pointee.interrupt_callback = AVIOInterruptCB(
        callback: InputContainer.interrupted,
        opaque: Unmanaged.passUnretained(cancellation).toOpaque())
      var dictionary: OpaquePointer? = nil
      for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
      defer { av_dict_free(&dictionary) }
      var opened: UnsafeMutablePointer<AVFormatContext>? = fresh
      // On failure libav frees the context and sets the pointer to nil. Opening an MPD
      // parses it with libxml2 and then cleans libxml2's global state up (FFmpeg 5.1):
      // nothing else in the process may be in libxml2 meanwhile (`LibXML2`).
      let code = LibXML2.exclusively { avformat_open_input(&opened, path, nil, &dictionary) }
      guard code >= 0, let opened else {
        throw cancellation.isRaised ? .cancelled : LibAVCall.error(code, "avformat_open_input")
      }
      context = opened
    }

    deinit {
      var pointer: UnsafeMutablePointer<AVFormatContext>? = context
      avformat_close_input(&pointer)
    }

    /// Reads packets ahead to learn every stream's codec parameters (needed for MPEG-TS, whose
    /// headers say little).
    func findStreamInfo() throws(ExportError) {
      let code = avformat_find_stream_info(context, nil)
      if cancellation.isRaised { throw .cancelled }
      try LibAVCall.check(code, "avformat_find_stream_info")
    }

    /// Whether every video stream's picture size and every audio stream's sample rate and
    /// channels are known: what a muxer needs, and what a short read-ahead may not find.
    var knowsEveryStream: Bool {
      streams.allSatisfy { stream in
        guard let parameters = stream.pointee.codecpar?.pointee else { return false }
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: return parameters.width > 0 && parameters.height > 0
        case AVMEDIA_TYPE_AUDIO:
          return parameters.sample_rate > 0 && parameters.ch_layout.nb_channels > 0
        default: return true
        }
      }
    }

    /// The demuxer's streams, by index.
    var streams: [UnsafeMutablePointer<AVStream>] {
      (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
    }

    /// The duration the container states, in seconds, or nil when it does not say.
    var duration: Double? {
      let microseconds = context.pointee.duration
      guard microseconds != ok_av_nopts_value(), microseconds > 0 else { return nil }
      return Double(microseconds) / Double(AV_TIME_BASE)
    }

    /// When the first stream starts, in seconds (zero when unknown).
    var startTime: Double {
      let microseconds = context.pointee.start_time
      guard microseconds != ok_av_nopts_value() else { return 0 }
      return Double(microseconds) / Double(AV_TIME_BASE)
    }

    /// Reads the next packet into `packet`; false at the end of the input.
    func read(into packet: Packet) throws(ExportError) -> Bool {
      av_packet_unref(packet.pointer)
      let code = av_read_frame(context, packet.pointer)
      if code == ok_averror_eof() { return false }
      if cancellation.isRaised { throw .cancelled }
      try LibAVCall.check(code, "av_read_frame")
      return true
    }

    /// libav's interrupt callback: nonzero once the export is cancelled.
    private static let interrupted: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = {
      opaque in
      guard let opaque else { return 0 }
      return Unmanaged<CancellationFlag>.fromOpaque(opaque).takeUnretainedValue().isRaised
        ? 1 : 0
    }
  }
#endif
