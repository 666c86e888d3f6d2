#if canImport(CAVFormat)
  import CAVFormat

  /// The 128-bit MurmurHash3 of a packet's payload proper (see ``PayloadFraming``), with
  /// libavutil's: a check that the same bytes arrived, not a defence against anyone. (MD5 took
  /// two thirds of an export's CPU time; MurmurHash3 is several times faster.)
  final class PayloadHasher {
    /// A digest, 16 bytes as two words.
    struct Digest: Sendable, Equatable {
      var high: UInt64
      var low: UInt64
    }

    private let context: OpaquePointer

    /// Makes a hasher, reused packet after packet.
    init() throws(ExportError) {
      guard let context = av_murmur3_alloc() else {
        throw LibAVCall.error(-12, "av_murmur3_alloc")
      }
      self.context = context
    }

    deinit { av_free(UnsafeMutableRawPointer(context)) }

    /// The digest of the payload proper of `packet`, framed as `framing` says.
    func digest(of packet: UnsafeRawBufferPointer, framing: PayloadFraming) -> Digest {
      av_murmur3_init(context)
      framing.forEachPayloadPart(of: packet) { part in
        guard let base = part.baseAddress else { return }
        av_murmur3_update(context, base.assumingMemoryBound(to: UInt8.self), part.count)
      }
      var bytes = (UInt64(0), UInt64(0))
      withUnsafeMutableBytes(of: &bytes) { buffer in
        av_murmur3_final(context, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
      }
      return Digest(high: bytes.0, low: bytes.1)
    }
  }
#endif
