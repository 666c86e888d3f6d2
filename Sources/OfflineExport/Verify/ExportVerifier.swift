#if canImport(CAVFormat)
  import CAVFormat

  /// Checks a written file against the offline copy without decoding: each track has every
  /// packet copied, in order, with the same payload proper (see ``PayloadFraming``), on a
  /// monotonic timeline, and the file's duration is within one segment of the playlist's.
  struct ExportVerifier {
    /// The file to check.
    var path: String
    /// Its container.
    var format: ExportFormat
    /// The chosen streams, with the digests of the packets read from the offline copy.
    var plans: [TrackPlan]
    /// The playlist's duration and the tolerance, from the offline copy.
    var source: ExportInput
    /// What the demuxer opens of the offline copy, in order (``DemuxedParts``), for
    /// ``verifySource()``; empty for its manifest alone.
    var parts: [String] = []
    /// Raised when the export is cancelled.
    var cancellation: CancellationFlag
    /// Called from the checking thread each time the fraction done grows by a hundredth.
    var progress: (ExportProgress) -> Void

    /// Reads the file back; throws ``ExportError/verificationFailed(detail:)`` at the first
    /// difference.
    func verify() throws(ExportError) -> (ExportReport.Verification, duration: Double) {
      let input = try InputContainer(path: path, options: [:], cancellation: cancellation)
      let streams = input.streams
      guard streams.count == plans.count else {
        throw .verificationFailed(
          detail: "the file has \(streams.count) tracks instead of \(plans.count)")
      }
      let framings = streams.map { stream in
        PayloadFraming(
          codec: String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id)),
          extradata: Remuxer.extradata(stream.pointee.codecpar))
      }
      var seen = [Int](repeating: 0, count: plans.count)
      // MP4 stores decode times: they must grow. Matroska stores presentation times only
      // (libavformat makes decode times up, not always growing, for B-frames): those must
      // grow once put in presentation order, whatever the container.
      let checksDecodeTimes = format == .mp4
      var lastDTS = [Int64?](repeating: nil, count: plans.count)
      var orders = [PresentationOrder](repeating: PresentationOrder(), count: plans.count)
      let expected = plans.reduce(0) { $0 + $1.digests.count }
      let packet = try Packet()
      // The digests are taken on another thread while the file is read, and compared at
      // the end.
      let hashing = try PacketHashing()
      var digests: [PayloadHasher.Digest]? = nil
      defer { if digests == nil { _ = hashing.finish() } }
      var sequences = [[Int]](repeating: [], count: plans.count)
      var compared = 0
      var reported = -1
      while try input.read(into: packet) {
        if cancellation.isRaised { throw .cancelled }
        let track = Int(packet.pointer.pointee.stream_index)
        let plan = plans[track]
        // The MP4 muxer fills a gap between two timed-text cues with an empty sample (its
        // two-byte length 0); it is not one of the copy's.
        if plan.codec == "mov_text", packet.payload.elementsEqual([0, 0]) { continue }
        let number = seen[track]
        guard number < plan.digests.count else {
          throw .verificationFailed(
            detail: "track \(track) (\(plan.codec)) has more than \(plan.digests.count) packets")
        }
        sequences[track].append(try hashing.submit(packet, framing: framings[track]))
        let (pts, dts) = (packet.pointer.pointee.pts, packet.pointer.pointee.dts)
        let none = ok_av_nopts_value()
        if checksDecodeTimes, dts != none, let last = lastDTS[track], dts <= last {
          throw .verificationFailed(
            detail: "the decode times of track \(track) (\(plan.codec)) go back at packet "
              + "\(number)")
        }
        if dts != none { lastDTS[track] = dts }
        if pts != none, !orders[track].add(pts) {
          throw .verificationFailed(
            detail: "the presentation times of track \(track) (\(plan.codec)) go back near "
              + "packet \(number)")
        }
        seen[track] += 1
        compared += 1
        let percent = expected > 0 ? compared * 100 / expected : 100
        if percent > reported {
          reported = percent
          progress(
            ExportProgress(phase: .verifying, fraction: Double(percent) / 100, packets: compared))
        }
      }
      let computed = hashing.finish()
      digests = computed
      for (track, plan) in plans.enumerated() {
        if let number = sequences[track].indices.first(where: {
          computed[sequences[track][$0]] != plan.digests[$0]
        }) {
          throw .verificationFailed(
            detail: "packet \(number) of track \(track) (\(plan.codec)) differs from the copy's")
        }
      }
      for track in plans.indices where !orders[track].finish() {
        throw .verificationFailed(
          detail: "the presentation times of track \(track) (\(plans[track].codec)) go back "
            + "at its end")
      }
      for (track, plan) in plans.enumerated() where seen[track] != plan.digests.count {
        throw .verificationFailed(
          detail: "track \(track) (\(plan.codec)) has \(seen[track]) packets instead of "
            + "\(plan.digests.count)")
      }
      let duration = input.duration ?? 0
      let difference = duration - source.duration
      guard abs(difference) <= source.segmentDuration else {
        throw .verificationFailed(
          detail: "the file lasts \(duration) s, the playlist \(source.duration) s")
      }
      return (
        ExportReport.Verification(
          packetsCompared: compared, durationDifference: difference,
          durationTolerance: source.segmentDuration),
        duration
      )
    }
  }
#endif
