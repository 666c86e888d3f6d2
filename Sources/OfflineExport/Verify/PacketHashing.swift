#if canImport(CAVFormat)
  import CAVFormat
  import Foundation

  /// Hashes packets' payloads (``PayloadHasher``) on a thread of its own while the copy goes
  /// on: on two cores the digests cost the copy no time (they took a ninth of an export's
  /// CPU time on its own thread).
  ///
  /// Each packet handed over is a new reference to the same payload (`av_packet_ref`, no
  /// copy), kept until it is hashed; at most `limit` bytes of payload wait, beyond which
  /// ``submit(_:framing:)`` waits for the hashing thread. Digests come out in the order the
  /// packets were handed over: the n-th handed over has digest n.
  final class PacketHashing: @unchecked Sendable {
    // @unchecked: every stored var is read and written only with `condition` locked, and each
    // waiting packet belongs to the queue alone (the caller keeps no pointer to it).
    private struct Waiting {
      var packet: UnsafeMutablePointer<AVPacket>
      var framing: PayloadFraming
    }

    private let condition = NSCondition()
    private var waiting: [Waiting] = []
    private var waitingBytes = 0
    private var handedOver = 0
    private var digests: [PayloadHasher.Digest] = []
    private var isClosed = false
    private var isDone = false
    private let limit: Int
    private let hasher: PayloadHasher

    /// Starts the hashing thread; at most `limit` bytes of payload wait for it.
    init(limit: Int = 1 << 20) throws(ExportError) {
      self.limit = limit
      hasher = try PayloadHasher()
      let thread = Thread { [self] in work() }
      thread.name = "OfflineExport hashing"
      thread.start()
    }

    /// Hands over `packet`'s payload to be hashed as `framing` says; returns its number among
    /// the packets handed over (from zero). Waits while more than `limit` bytes wait.
    func submit(_ packet: Packet, framing: PayloadFraming) throws(ExportError) -> Int {
      guard let reference = av_packet_alloc() else { throw LibAVCall.error(-12, "av_packet_alloc") }
      let code = av_packet_ref(reference, packet.pointer)
      guard code >= 0 else {
        var freed: UnsafeMutablePointer<AVPacket>? = reference
        av_packet_free(&freed)
        throw LibAVCall.error(code, "av_packet_ref")
      }
      condition.lock()
      defer { condition.unlock() }
      while waitingBytes > limit { condition.wait() }
      waiting.append(Waiting(packet: reference, framing: framing))
      waitingBytes += Int(reference.pointee.size)
      handedOver += 1
      condition.broadcast()
      return handedOver - 1
    }

    /// Waits until every packet handed over is hashed, ends the thread and returns the
    /// digests in the order the packets were handed over. Call it once, also when the copy
    /// fails (the packets still waiting are then hashed and freed: a few megabytes at most).
    func finish() -> [PayloadHasher.Digest] {
      condition.lock()
      defer { condition.unlock() }
      isClosed = true
      condition.broadcast()
      while !isDone { condition.wait() }
      return digests
    }

    private func work() {
      while true {
        condition.lock()
        while waiting.isEmpty && !isClosed { condition.wait() }
        let batch = waiting
        waiting = []
        if batch.isEmpty {
          isDone = true
          condition.broadcast()
          condition.unlock()
          return
        }
        condition.unlock()
        var computed: [PayloadHasher.Digest] = []
        computed.reserveCapacity(batch.count)
        var bytes = 0
        for item in batch {
          let size = Int(item.packet.pointee.size)
          let payload = UnsafeRawBufferPointer(
            start: size > 0 ? item.packet.pointee.data : nil, count: size)
          computed.append(hasher.digest(of: payload, framing: item.framing))
          bytes += size
          var freed: UnsafeMutablePointer<AVPacket>? = item.packet
          av_packet_free(&freed)
        }
        condition.lock()
        digests += computed
        waitingBytes -= bytes
        condition.broadcast()
        condition.unlock()
      }
    }
  }
#endif
