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
      /// The cues of the subtitle track made from WebVTT renditions, in the file's times;
      /// empty when there is none.
      var subtitleCues: [WebVTTCue] = []
    }

    private let source: ExportInput
    private let parts: [String]
    private let path: String
    private let format: ExportFormat
    private let cancellation: CancellationFlag
    private let log: (ExportLogMessage) -> Void
    private let progress: (ExportProgress) -> Void
    private let moovReservation: ([Double?], Double) -> Int?

    /// Prepares a copy of `source`, demuxed from `parts` one after the other (its manifest,
    /// or one MPD per DASH Period: ``DemuxedParts``; nil for the manifest alone), into a new file at `path`; `progress` is
    /// called from the
    /// copying thread each time the fraction done grows by a hundredth. `moovReservation`
    /// sizes an MP4's room for its index from the tracks' packet rates and the duration
    /// (``MoovReservation/bytes(packetRates:duration:)``; tests pass a wrong one).
    init(
      source: ExportInput, parts: [String]? = nil, path: String, format: ExportFormat,
      cancellation: CancellationFlag,
      log: @escaping (ExportLogMessage) -> Void, progress: @escaping (ExportProgress) -> Void,
      moovReservation: @escaping ([Double?], Double) -> Int? = MoovReservation.bytes
    ) {
      self.source = source
      self.parts = parts ?? [source.manifest.path]
      self.path = path
      self.format = format
      self.cancellation = cancellation
      self.log = log
      self.progress = progress
      self.moovReservation = moovReservation
    }

    /// Copies every packet, then writes the trailer and closes the file. An MP4 gets room for
    /// its index before its media (``MoovReservation``); when that room turns out too small,
    /// the copy is made again with `faststart`.
    func run() throws(ExportError) -> Outcome {
      guard format == .mp4 else { return try copy(reservingMoov: false) }
      do throws(ExportError) {
        return try copy(reservingMoov: true)
      } catch .libav(let call, let code, _) where call == "av_write_trailer" && code == -EINVAL {
        // The reservation was too small: the index overwrote the start of the media.
        log(
          ExportLogMessage(
            level: .notice,
            text: "The room kept for the MP4 index was too small; copying again with faststart."))
        return try copy(reservingMoov: false)
      }
    }

    private func copy(reservingMoov: Bool) throws(ExportError) -> Outcome {
      let first = try Self.openPart(parts[0], source: source, cancellation: cancellation)
      let signatures = first.streams.map(StreamSignature.init)
      let output = try OutputContainer(path: path, format: format)
      var (plans, filters) = try Self.planTracks(
        input: first, output: output, source: source, format: format)
      let subtitles =
        plans.contains(where: { $0.kind == .subtitle })
        ? nil
        : try Self.subtitleWriter(
          source: source, output: output, format: format, log: log)
      let reservation =
        reservingMoov
        ? moovReservation(
          plans.map { MoovReservation.packetRate(of: first.streams[$0.inputIndex]) }
            + (subtitles.map { [2 * Double($0.cueCount) / max(source.duration, 1)] } ?? []),
          source.duration)
        : nil
      try output.writeHeader(options: Self.muxerOptions(format, reservation: reservation))
      subtitles?.headerWritten(output)
      var planOfStream = [Int?](repeating: nil, count: first.streams.count)
      for (number, plan) in plans.enumerated() {
        planOfStream[plan.inputIndex] = number
        plans[number].outputTimeBase =
          output.context.pointee.streams[plan.outputIndex]!
          .pointee.time_base
      }
      let writer = TimelineWriter(
        plans: plans, filters: filters, output: output, startTime: first.startTime,
        jumpThreshold: max(2 * source.segmentDuration, 5), log: log)
      let packet = try Packet()
      let hashing = try PacketHashing()
      var digests: [PayloadHasher.Digest]? = nil
      defer { if digests == nil { _ = hashing.finish() } }
      var reported = -1
      var count = 0
      for partNumber in parts.indices {
        let part =
          partNumber == 0
          ? first
          : try Self.openPart(parts[partNumber], source: source, cancellation: cancellation)
        let prefixes =
          partNumber == 0
          ? [:] : try Self.checkPart(part, number: partNumber, matches: signatures, source: source)
        let timeBases = part.streams.map(\.pointee.time_base)
        while try part.read(into: packet) {
          if cancellation.isRaised { throw .cancelled }
          guard let number = planOfStream[Int(packet.pointer.pointee.stream_index)] else {
            continue
          }
          let partTimeBase = timeBases[plans[number].inputIndex]
          if av_cmp_q(partTimeBase, plans[number].inputTimeBase) != 0 {
            // A later Period in another time base: onto the first's, which the track keeps.
            av_packet_rescale_ts(packet.pointer, partTimeBase, plans[number].inputTimeBase)
          }
          if let prefix = prefixes[plans[number].inputIndex],
            packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0
          {
            try packet.prepend(prefix)
          }
          count += 1
          let sequence = try hashing.submit(packet, framing: plans[number].framing)
          guard let seconds = try writer.write(packet, number: number, sequence: sequence) else {
            continue
          }
          try subtitles?.write(upTo: seconds, epochs: writer.epochs, into: output)
          let percent = Int(min(max(seconds / source.duration, 0), 1) * 100)
          if percent > reported {
            reported = percent
            progress(
              ExportProgress(phase: .writing, fraction: Double(percent) / 100, packets: count))
          }
        }
      }
      try writer.flush()
      try subtitles?.finish(epochs: writer.epochs, into: output)
      try output.finish()
      if reported < 100 { progress(ExportProgress(phase: .writing, fraction: 1, packets: count)) }
      let computed = hashing.finish()
      digests = computed
      var copied = writer.plans
      for index in copied.indices {
        copied[index].digests = copied[index].sequences.map { computed[$0] }
      }
      return Outcome(
        plans: copied + (subtitles.map { [$0.plan] } ?? []),
        discontinuities: writer.discontinuities, subtitleCues: subtitles?.written ?? [])
    }

    /// The muxer's options: for MP4 either the room for the index (`moov_size`) or, without
    /// it, `faststart`; none for Matroska.
    static func muxerOptions(_ format: ExportFormat, reservation: Int?) -> [String: String] {
      guard format == .mp4 else { return [:] }
      if let reservation { return ["moov_size": String(reservation)] }
      return ["movflags": "+faststart"]
    }
  }
#endif
