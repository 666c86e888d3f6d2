#if canImport(CAVFormat)
  import CAVFormat

  /// Writes the cues of a WebVTT rendition as one subtitle track of the file: `mov_text`
  /// (3GPP timed text) in MP4, WebVTT in Matroska. libavformat 5.1's HLS demuxer makes no
  /// stream of such a rendition, so the export reads its segments itself
  /// (``WebVTTRendition``) and hands the cues to the muxer between the other packets, each
  /// once the copy has reached its start, so the muxer never waits for them.
  ///
  /// The cues are put on the file's timeline by a ``CueTimeline``, domain by domain, as the
  /// copy finds the epochs of that timeline. A cue that would start before an earlier one's
  /// start is moved a millisecond after it (the container wants growing times).
  final class SubtitleCueWriter {
    /// The track as the check after writing sees it; its digests grow as cues are written.
    private(set) var plan: TrackPlan
    private var timeline: CueTimeline
    private let isMovText: Bool
    private var lastStart: Int64 = -1
    private let hasher: PayloadHasher

    /// Adds the subtitle stream for the cues of `timeline` to `output` (its language and
    /// default flag from the rendition).
    init(
      timeline: CueTimeline, rendition: ExportInput.Rendition, output: OutputContainer,
      format: ExportFormat
    ) throws(ExportError) {
      self.timeline = timeline
      cueCount = timeline.count
      isMovText = format == .mp4
      hasher = try PayloadHasher()
      let codec = isMovText ? AV_CODEC_ID_MOV_TEXT : AV_CODEC_ID_WEBVTT
      let stream = try output.addSubtitleStream(
        codec: codec, extradata: isMovText ? Self.textSampleEntry : [])
      let language = rendition.language.map { LanguageCode.iso639_2($0) }
      if let language { av_dict_set(&stream.pointee.metadata, "language", language, 0) }
      if rendition.isDefault { stream.pointee.disposition |= AV_DISPOSITION_DEFAULT }
      plan = TrackPlan(
        inputIndex: -1, outputIndex: Int(stream.pointee.index), kind: .subtitle,
        codec: String(cString: avcodec_get_name(codec)), language: language,
        isDefault: rendition.isDefault, framing: .whole,
        inputTimeBase: AVRational(num: 1, den: 1000))
    }

    /// The cues written so far, in the file's times (seconds from its start).
    private(set) var written: [WebVTTCue] = []

    /// How many cues the track has.
    let cueCount: Int

    /// Takes the stream's time base, once the header is written.
    func headerWritten(_ output: OutputContainer) {
      plan.outputTimeBase = output.context.pointee.streams[plan.outputIndex]!.pointee.time_base
    }

    /// Writes the cues that start at or before `seconds` on the file's timeline, whose
    /// epochs so far are `epochs` (``TimelineWriter/epochs``).
    func write(upTo seconds: Double, epochs: [CueTimeline.Epoch], into output: OutputContainer)
      throws(ExportError)
    {
      for cue in timeline.take(upTo: seconds, epochs: epochs) { try write(cue, into: output) }
    }

    /// Writes every cue not yet written.
    func finish(epochs: [CueTimeline.Epoch], into output: OutputContainer) throws(ExportError) {
      for cue in timeline.finish(epochs: epochs) { try write(cue, into: output) }
    }

    private func write(_ cue: WebVTTCue, into output: OutputContainer) throws(ExportError) {
      let end = Int64((cue.end * 1000).rounded())
      var start = max(Int64((cue.start * 1000).rounded()), 0)
      guard end > start else { return }
      if start <= lastStart { start = lastStart + 1 }
      guard end > start else { return }
      lastStart = start
      written.append(
        WebVTTCue(start: Double(start) / 1000, end: Double(end) / 1000, text: cue.text))
      let text = Array(cue.text.utf8)
      let payload =
        isMovText ? [UInt8(text.count >> 8 & 0xFF), UInt8(text.count & 0xFF)] + text : text
      let packet = try Packet()
      try LibAVCall.check(av_new_packet(packet.pointer, Int32(payload.count)), "av_new_packet")
      payload.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress {
          packet.pointer.pointee.data.update(
            from: base.assumingMemoryBound(to: UInt8.self), count: payload.count)
        }
      }
      packet.pointer.pointee.pts = start
      packet.pointer.pointee.dts = start
      packet.pointer.pointee.duration = end - start
      packet.pointer.pointee.flags |= AV_PKT_FLAG_KEY
      plan.digests.append(hasher.digest(of: packet.payload, framing: .whole))
      plan.bytes += Int64(payload.count)
      av_packet_rescale_ts(packet.pointer, plan.inputTimeBase, plan.outputTimeBase)
      packet.pointer.pointee.stream_index = Int32(plan.outputIndex)
      try output.write(packet)
    }

    /// A 3GPP TextSampleEntry's fields after its header (3GPP TS 26.245, 5.16): no display
    /// flags, centred at the bottom, a transparent background, a default text box, one style
    /// (font 1, 18 px, white) and a font table naming font 1 "Serif". Players need it to show
    /// `mov_text` at all.
    static let textSampleEntry: [UInt8] =
      [0, 0, 0, 0, 0x01, 0xFF, 0, 0, 0, 0]  // flags, justification, background RGBA
      + [0, 0, 0, 0, 0, 0, 0, 0]  // text box: top, left, bottom, right
      + [0, 0, 0, 0, 0, 1, 0, 0x12, 0xFF, 0xFF, 0xFF, 0xFF]  // style record
      + [0, 0, 0, 0x12] + Array("ftab".utf8) + [0, 1, 0, 1, 5] + Array("Serif".utf8)
  }
#endif
