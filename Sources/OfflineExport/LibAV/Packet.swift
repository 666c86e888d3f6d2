#if canImport(CAVFormat)
  import CAVFormat

  /// One owner of an `AVPacket`, reused packet after packet and freed on deinit.
  final class Packet {
    /// The packet; valid while this object lives.
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Allocates an empty packet.
    init() throws(ExportError) {
      guard let pointer = av_packet_alloc() else {
        throw LibAVCall.error(-12, "av_packet_alloc")
      }
      self.pointer = pointer
    }

    deinit {
      var pointer: UnsafeMutablePointer<AVPacket>? = pointer
      av_packet_free(&pointer)
    }

    /// The payload, empty when the packet holds none; valid until the packet changes.
    var payload: UnsafeRawBufferPointer {
      guard let data = pointer.pointee.data, pointer.pointee.size > 0 else {
        return UnsafeRawBufferPointer(start: nil, count: 0)
      }
      return UnsafeRawBufferPointer(start: data, count: Int(pointer.pointee.size))
    }
  }
#endif

#if canImport(CAVFormat)
  extension Packet {
    /// Puts `bytes` before the packet's payload, its timestamps and flags kept.
    func prepend(_ bytes: [UInt8]) throws(ExportError) {
      let fresh = try Packet()
      let old = payload
      try LibAVCall.check(
        av_new_packet(fresh.pointer, Int32(bytes.count + old.count)), "av_new_packet")
      let data = fresh.pointer.pointee.data!
      bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: bytes.count) }
      if let base = old.baseAddress {
        (data + bytes.count).update(
          from: base.assumingMemoryBound(to: UInt8.self), count: old.count)
      }
      try LibAVCall.check(av_packet_copy_props(fresh.pointer, pointer), "av_packet_copy_props")
      av_packet_unref(pointer)
      av_packet_move_ref(pointer, fresh.pointer)
    }
  }
#endif
