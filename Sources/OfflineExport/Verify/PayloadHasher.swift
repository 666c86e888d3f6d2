#if canImport(CAVFormat)
  import CAVFormat

  /// The MD5 of a packet's payload proper (see ``PayloadFraming``), with libavutil's MD5:
  /// a check that the same bytes arrived, not a defence against anyone.
  final class PayloadHasher {
    /// An MD5 digest, 16 bytes as two words.
    struct Digest: Sendable, Equatable {
      var high: UInt64
      var low: UInt64
    }

    private let context: OpaquePointer

    /// Makes a hasher, reused packet after packet.
    init() throws(ExportError) {
      guard let context = av_md5_alloc() else { throw LibAVCall.error(-12, "av_md5_alloc") }
      self.context = context
    }

    deinit { av_free(UnsafeMutableRawPointer(context)) }

    /// The digest of the payload proper of `packet`, framed as `framing` says.
    func digest(of packet: UnsafeRawBufferPointer, framing: PayloadFraming) -> Digest {
      av_md5_init(context)
      framing.forEachPayloadPart(of: packet) { part in
        guard let base = part.baseAddress else { return }
        av_md5_update(context, base.assumingMemoryBound(to: UInt8.self), part.count)
      }
      var bytes = (UInt64(0), UInt64(0))
      withUnsafeMutableBytes(of: &bytes) { buffer in
        av_md5_final(context, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
      }
      return Digest(high: bytes.0, low: bytes.1)
    }
  }
#endif
