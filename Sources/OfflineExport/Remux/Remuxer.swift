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

    private let source: OfflineSource
    private let path: String
    private let format: ExportFormat
    private let cancellation: CancellationFlag
    private let log: (ExportLogMessage) -> Void
    private let progress: (ExportProgress) -> Void

    /// Prepares a copy of `source` into a new file at `path`; `progress` is called from the
    /// copying thread each time the fraction done grows by a hundredth.
    init(
      source: OfflineSource, path: String, format: ExportFormat, cancellation: CancellationFlag,
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
      try output.writeHeader(options: format == .mp4 ? ["movflags": "+faststart"] : [:])
      var planOfStream = [Int?](repeating: nil, count: input.streams.count)
      for (number, plan) in plans.enumerated() {
        planOfStream[plan.inputIndex] = number
        plans[number].outputTimeBase =
          output.context.pointee.streams[plan.outputIndex]!
          .pointee.time_base
      }
      var stitcher = TimelineStitcher(
        timeBases: plans.map {
          .init(numerator: Int64($0.inputTimeBase.num), denominator: Int64($0.inputTimeBase.den))
        },
        sparse: plans.map { $0.kind == .subtitle }, startTime: input.startTime,
        jumpThreshold: max(2 * source.segmentDuration, 5))
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
        // Appended before `plan` copies the track: with a copy alive, each append would copy
        // the whole array.
        plans[number].digests.append(
          hasher.digest(of: packet.payload, framing: plans[number].framing))
        plans[number].bytes += Int64(packet.pointer.pointee.size)
        let plan = plans[number]
        let seconds = try stitch(packet, plan: plan, number: number, stitcher: &stitcher)
        if let filter = filters[plan.inputIndex] { try filter.filter(packet) }
        av_packet_rescale_ts(packet.pointer, plan.inputTimeBase, plan.outputTimeBase)
        packet.pointer.pointee.stream_index = Int32(plan.outputIndex)
        packet.pointer.pointee.pos = -1
        try output.write(packet)
        let percent = Int(min(max(seconds / source.duration, 0), 1) * 100)
        if percent > reported {
          reported = percent
          progress(ExportProgress(phase: .writing, fraction: Double(percent) / 100, packets: count))
        }
      }
      try output.finish()
      return Outcome(plans: plans, discontinuities: stitcher.discontinuities)
    }

    /// Rewrites `packet`'s timestamps onto the continuous timeline; returns its decode time in
    /// seconds on that timeline (for progress).
    private func stitch(
      _ packet: Packet, plan: TrackPlan, number: Int, stitcher: inout TimelineStitcher
    ) throws(ExportError) -> Double {
      let none = ok_av_nopts_value()
      let raw = packet.pointer.pointee
      let stamps = TimelineStitcher.Stamps(
        pts: raw.pts == none ? nil : raw.pts, dts: raw.dts == none ? nil : raw.dts)
      let (stitched, startedEpoch) = stitcher.stitch(
        stamps, duration: raw.duration, stream: number)
      packet.pointer.pointee.pts = stitched.pts ?? none
      packet.pointer.pointee.dts = stitched.dts ?? none
      let time = stitched.dts ?? stitched.pts ?? 0
      let seconds = Double(time) * av_q2d(plan.inputTimeBase)
      if startedEpoch {
        log(
          ExportLogMessage(
            level: .notice,
            text: "The \(plan.kind.rawValue) timestamps jump at \(Int(seconds)) s; "
              + "the following packets are moved to follow on."))
      }
      return seconds
    }
  }
#endif
