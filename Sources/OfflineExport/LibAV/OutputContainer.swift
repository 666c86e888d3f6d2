#if canImport(CAVFormat)
  import CAVFormat

  /// The one owner of a muxer's `AVFormatContext` and its output file.
  final class OutputContainer {
    /// The muxer; valid while this object lives.
    let context: UnsafeMutablePointer<AVFormatContext>
    private var fileIsOpen = false

    /// Makes a `format` muxer writing to `path`, an empty file (it is created if missing, never
    /// truncated).
    init(path: String, format: ExportFormat) throws(ExportError) {
      var pointer: UnsafeMutablePointer<AVFormatContext>?
      try LibAVCall.check(
        avformat_alloc_output_context2(&pointer, nil, format.muxerName, path),
        "avformat_alloc_output_context2")
      guard let pointer else { throw LibAVCall.error(-12, "avformat_alloc_output_context2") }
      context = pointer
      // From here a throw runs deinit, which frees the context.
      // Without truncating: DestinationFile made the file, empty. On ext4 an O_TRUNC open of an
      // existing file makes its close start writing all its pages out and wait for that to be
      // submitted (auto_da_alloc): 0.46 s of a 1.3 GB export, on the export's thread.
      var options: OpaquePointer? = nil
      av_dict_set(&options, "truncate", "0", 0)
      defer { av_dict_free(&options) }
      try LibAVCall.check(
        avio_open2(&context.pointee.pb, path, AVIO_FLAG_WRITE, nil, &options), "avio_open2")
      fileIsOpen = true
    }

    deinit {
      if fileIsOpen { avio_closep(&context.pointee.pb) }
      avformat_free_context(context)
    }

    /// Whether the container can store `codec` (libav's `avformat_query_codec`).
    func accepts(_ codec: AVCodecID) -> Bool {
      avformat_query_codec(context.pointee.oformat, codec, FF_COMPLIANCE_NORMAL) == 1
    }

    /// Adds a stream with `parameters` copied (the codec tag cleared: the muxer picks its
    /// own) and `timeBase` as a hint; the muxer may change it when the header is written.
    func addStream(
      copying parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational
    ) throws(ExportError) -> UnsafeMutablePointer<AVStream> {
      guard let stream = avformat_new_stream(context, nil) else {
        throw LibAVCall.error(-12, "avformat_new_stream")
      }
      try LibAVCall.check(
        avcodec_parameters_copy(stream.pointee.codecpar, parameters), "avcodec_parameters_copy")
      stream.pointee.codecpar.pointee.codec_tag = 0
      stream.pointee.time_base = timeBase
      return stream
    }

    /// Adds a subtitle stream of `codec` whose codec header is `extradata` (copied), with
    /// milliseconds as its time base hint.
    func addSubtitleStream(codec: AVCodecID, extradata: [UInt8]) throws(ExportError)
      -> UnsafeMutablePointer<AVStream>
    {
      guard let stream = avformat_new_stream(context, nil) else {
        throw LibAVCall.error(-12, "avformat_new_stream")
      }
      let parameters = stream.pointee.codecpar!
      parameters.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
      parameters.pointee.codec_id = codec
      if !extradata.isEmpty {
        let padded = extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let bytes = av_mallocz(padded)?.assumingMemoryBound(to: UInt8.self) else {
          throw LibAVCall.error(-12, "av_mallocz")
        }
        bytes.update(from: extradata, count: extradata.count)
        parameters.pointee.extradata = bytes
        parameters.pointee.extradata_size = Int32(extradata.count)
      }
      stream.pointee.time_base = AVRational(num: 1, den: 1000)
      return stream
    }

    /// Writes the container's header with the muxer `options` (such as `movflags`).
    func writeHeader(options: [String: String]) throws(ExportError) {
      var dictionary: OpaquePointer? = nil
      for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
      defer { av_dict_free(&dictionary) }
      try LibAVCall.check(avformat_write_header(context, &dictionary), "avformat_write_header")
    }

    /// Hands one packet, in its output stream's time base, to the interleaving muxer, which
    /// takes its payload.
    func write(_ packet: Packet) throws(ExportError) {
      try LibAVCall.check(
        av_interleaved_write_frame(context, packet.pointer), "av_interleaved_write_frame")
    }

    /// Writes the trailer (for MP4 with `faststart`, moves `moov` before `mdat`) and closes
    /// the file.
    func finish() throws(ExportError) {
      try LibAVCall.check(av_write_trailer(context), "av_write_trailer")
      fileIsOpen = false
      try LibAVCall.check(avio_closep(&context.pointee.pb), "avio_closep")
    }
  }
#endif
