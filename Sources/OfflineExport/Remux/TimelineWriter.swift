#if canImport(CAVFormat)
  import CAVFormat

  /// Puts packets on the continuous timeline (``TimelineStitcher``), through their bitstream
  /// filter, into the muxer, and records each written packet's number (``PacketHashing``'s, whose
  /// digest it will be) in its track's plan.
  /// Packets the stitcher holds (another stream left an epoch before the primary stream fixed
  /// its shift) wait here, a few at most, and go out in their order; those it drops (audio
  /// the previous part already covers) are counted.
  final class TimelineWriter {
    /// The most packets held before they are placed without waiting any longer.
    static let holdLimit = 256

    private var stitcher: TimelineStitcher
    /// The chosen streams, with the numbers of the packets written so far.
    private(set) var plans: [TrackPlan]
    private let filters: [Int: BitstreamFilter]
    private let output: OutputContainer
    private let log: (ExportLogMessage) -> Void
    private var held: [(packet: Packet, number: Int, sequence: Int)] = []
    private var holding: Set<Int> = []

    /// Discontinuities stitched so far.
    var discontinuities: Int { stitcher.discontinuities }

    /// The epochs of the timeline found so far, in order.
    var epochs: [CueTimeline.Epoch] { stitcher.epochs }

    /// Writes the streams of `plans` (in their order) into `output`, on one timeline that
    /// starts at `startTime` seconds of the source and leaves an epoch on jumps beyond
    /// `jumpThreshold` seconds.
    init(
      plans: [TrackPlan], filters: [Int: BitstreamFilter], output: OutputContainer,
      startTime: Double, jumpThreshold: Double, log: @escaping (ExportLogMessage) -> Void
    ) {
      self.plans = plans
      self.filters = filters
      self.output = output
      self.log = log
      let primary =
        plans.firstIndex { $0.kind == .video } ?? plans.firstIndex { $0.kind == .audio }
      stitcher = TimelineStitcher(
        timeBases: plans.map {
          .init(numerator: Int64($0.inputTimeBase.num), denominator: Int64($0.inputTimeBase.den))
        },
        sparse: plans.map { $0.kind == .subtitle }, droppable: plans.map { $0.kind == .audio },
        primary: primary, startTime: startTime,
        jumpThreshold: jumpThreshold,
        minimumSteps: plans.map {
          av_rescale_q_rnd(1, $0.outputTimeBase, $0.inputTimeBase, AV_ROUND_UP)
        })
    }

    /// Writes `packet`, of the plan numbered `number` and handed to the hashing as `sequence`,
    /// or holds it
    /// (taking its payload) or drops it; returns its decode time in seconds on the timeline
    /// when it was written.
    func write(_ packet: Packet, number: Int, sequence: Int) throws(ExportError)
      -> Double?
    {
      if holding.contains(number) {
        try hold(packet, number: number, sequence: sequence)
        return nil
      }
      return try place(
        packet, number: number, sequence: sequence, mayHold: held.count < Self.holdLimit)
    }

    /// Writes every packet still held.
    func flush() throws(ExportError) {
      let queue = held
      held = []
      holding = []
      for (packet, number, sequence) in queue {
        _ = try place(packet, number: number, sequence: sequence, mayHold: false)
      }
    }

    private func hold(_ packet: Packet, number: Int, sequence: Int)
      throws(ExportError)
    {
      let kept = try Packet()
      av_packet_move_ref(kept.pointer, packet.pointer)
      held.append((kept, number, sequence))
      holding.insert(number)
      if held.count >= Self.holdLimit { try flush() }
    }

    private func place(
      _ packet: Packet, number: Int, sequence: Int, mayHold: Bool
    ) throws(ExportError) -> Double? {
      let none = ok_av_nopts_value()
      let raw = packet.pointer.pointee
      let stamps = TimelineStitcher.Stamps(
        pts: raw.pts == none ? nil : raw.pts, dts: raw.dts == none ? nil : raw.dts)
      let placement = stitcher.stitch(
        stamps, duration: raw.duration, stream: number, mayHold: mayHold)
      let stitched: TimelineStitcher.Stamps
      let startedEpoch: Bool
      switch placement {
      case .placed(let stamps, let started):
        stitched = stamps
        startedEpoch = started
      case .held:
        try hold(packet, number: number, sequence: sequence)
        return nil
      case .dropped:
        // A stream's packets are placed or dropped in the order they were read, so this one's
        // place among them is the count of those before it.
        let plan = plans[number]
        plans[number].droppedIndices.append(plan.sequences.count + plan.droppedIndices.count)
        return nil
      }
      plans[number].sequences.append(sequence)
      plans[number].bytes += Int64(raw.size)
      let plan = plans[number]
      packet.pointer.pointee.pts = stitched.pts ?? none
      packet.pointer.pointee.dts = stitched.dts ?? none
      let seconds = Double(stitched.dts ?? stitched.pts ?? 0) * av_q2d(plan.inputTimeBase)
      if let filter = filters[plan.inputIndex] { try filter.filter(packet) }
      av_packet_rescale_ts(packet.pointer, plan.inputTimeBase, plan.outputTimeBase)
      packet.pointer.pointee.stream_index = Int32(plan.outputIndex)
      packet.pointer.pointee.pos = -1
      try output.write(packet)
      if startedEpoch {
        log(
          ExportLogMessage(
            level: .notice,
            text: "The timestamps jump at \(Int(seconds)) s (a discontinuity or a reset); "
              + "the following packets are moved to follow on."))
        try flush()
      }
      return seconds
    }
  }
#endif
