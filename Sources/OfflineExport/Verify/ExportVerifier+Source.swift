#if canImport(CAVFormat)
  import CAVFormat

  extension ExportVerifier {
    /// Reads the offline copy a second time and checks that it gives the packets the export
    /// copied: the same payloads, in the same order, less those dropped at discontinuities.
    /// Catches a read that does not give the same bytes twice, at the cost of a second demux.
    /// The copy is read in its ``parts`` (one per DASH Period), one after the other.
    func verifySource() throws(ExportError) {
      var planOfStream: [Int?] = []
      var read = [Int](repeating: 0, count: plans.count)
      var matched = [Int](repeating: 0, count: plans.count)
      var nextDrop = [Int](repeating: 0, count: plans.count)
      let packet = try Packet()
      let hasher = try PayloadHasher()
      for path in parts.isEmpty ? [source.manifest.path] : parts {
        let input = try Remuxer.openPart(path, source: source, cancellation: cancellation)
        if planOfStream.isEmpty {
          planOfStream = [Int?](repeating: nil, count: input.streams.count)
          for (number, plan) in plans.enumerated()
          where (0..<planOfStream.count).contains(plan.inputIndex) {
            planOfStream[plan.inputIndex] = number
          }
        }
        while try input.read(into: packet) {
          if cancellation.isRaised { throw .cancelled }
          let index = Int(packet.pointer.pointee.stream_index)
          guard index < planOfStream.count, let track = planOfStream[index] else { continue }
          let plan = plans[track]
          defer { read[track] += 1 }
          if nextDrop[track] < plan.droppedIndices.count,
            plan.droppedIndices[nextDrop[track]] == read[track]
          {
            nextDrop[track] += 1
            continue
          }
          guard matched[track] < plan.digests.count,
            hasher.digest(of: packet.payload, framing: plan.framing)
              == plan.digests[matched[track]]
          else {
            throw .verificationFailed(
              detail: "the offline copy read again differs at packet \(read[track]) of track "
                + "\(track) (\(plan.codec))")
          }
          matched[track] += 1
        }
      }
      // Tracks the demuxer does not make (WebVTT renditions read by the export) are not read.
      for (track, plan) in plans.enumerated()
      where plan.inputIndex >= 0 && matched[track] != plan.digests.count {
        throw .verificationFailed(
          detail: "the offline copy read again has \(matched[track]) packets of track \(track) "
            + "(\(plan.codec)) instead of \(plan.digests.count)")
      }
    }
  }
#endif
