#if canImport(CAVFormat)
  import CAVFormat

  /// Copies the chosen streams of an offline copy, packet by packet, into one file: no
  /// decoding, one packet in memory at a time (plus what the muxer interleaves). Runs on the
  /// caller's thread, start to end.
  final class Remuxer {
    /// What the copy did, for the check after writing and the report.
    struct Outcome {
      /// The chosen streams, with the digests of the packets copied.
      var plans: [TrackPlan]
      /// Timestamp discontinuities stitched.
      var discontinuities: Int
    }

    private let source: ExportInput
    private let path: String
    private let format: ExportFormat
    private let cancellation: CancellationFlag
    private let log: (ExportLogMessage) -> Void
    private let progress: (ExportProgress) -> Void

    /// Prepares a copy of `source` into a new file at `path`; `progress` is called from the
    /// copying thread each time the fraction done grows by a hundredth.
    init(
      source: ExportInput, path: String, format: ExportFormat, cancellation: CancellationFlag,
      log: @escaping (ExportLogMessage) -> Void, progress: @escaping (ExportProgress) -> Void
    ) {
      self.source = source
      self.path = path
      self.format = format
      self.cancellation = cancellation
      self.log = log
      self.progress = progress
    }

    /// Copies every packet, then writes the trailer and closes the file.
    func run() throws(ExportError) -> Outcome {
      let options = source.kind == .hls ? ["allowed_extensions": "ALL"] : [:]
      let input = try InputContainer(
        path: source.manifest.path, options: options, cancellation: cancellation)
      try input.findStreamInfo()
      let output = try OutputContainer(path: path, format: format)
      var (plans, filters) = try Self.planTracks(
        input: input, output: output, source: source, format: format)
      let subtitles = source.renditions.filter { $0.type == .subtitles }.count
      if subtitles > 0, !plans.contains(where: { $0.kind == .subtitle }) {
        // libavformat 5.1's HLS demuxer makes no stream of a SUBTITLES rendition.
        log(
          ExportLogMessage(
            level: .warning,
            text: "The playlist's \(subtitles) subtitle rendition(s) are not in the file: "
              + "this version of libavformat does not read WebVTT renditions."))
      }
      try output.writeHeader(options: format == .mp4 ? ["movflags": "+faststart"] : [:])
      var planOfStream = [Int?](repeating: nil, count: input.streams.count)
      for (number, plan) in plans.enumerated() {
        planOfStream[plan.inputIndex] = number
        plans[number].outputTimeBase =
          output.context.pointee.streams[plan.outputIndex]!
          .pointee.time_base
      }
      let writer = TimelineWriter(
        plans: plans, filters: filters, output: output, startTime: input.startTime,
        jumpThreshold: max(2 * source.segmentDuration, 5), log: log)
      let packet = try Packet()
      let hasher = try PayloadHasher()
      var reported = -1
      var count = 0
      while try input.read(into: packet) {
        if cancellation.isRaised { throw .cancelled }
        guard let number = planOfStream[Int(packet.pointer.pointee.stream_index)] else {
          continue
        }
        count += 1
        let digest = hasher.digest(of: packet.payload, framing: plans[number].framing)
        guard let seconds = try writer.write(packet, number: number, digest: digest) else {
          continue
        }
        let percent = Int(min(max(seconds / source.duration, 0), 1) * 100)
        if percent > reported {
          reported = percent
          progress(ExportProgress(phase: .writing, fraction: Double(percent) / 100, packets: count))
        }
      }
      try writer.flush()
      try output.finish()
      if reported < 100 { progress(ExportProgress(phase: .writing, fraction: 1, packets: count)) }
      return Outcome(plans: writer.plans, discontinuities: writer.discontinuities)
    }
  }
#endif
