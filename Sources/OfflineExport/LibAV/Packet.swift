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
