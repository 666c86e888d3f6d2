#if canImport(CAVFormat)
  import CAVFormat

  /// The one owner of a bitstream filter (such as `aac_adtstoasc`), which rewrites packets'
  /// framing without decoding them.
  final class BitstreamFilter {
    private var context: UnsafeMutablePointer<AVBSFContext>?

    /// Makes the filter `name` for a stream with `parameters` and `timeBase`.
    init(name: String, parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational)
      throws(ExportError)
    {
      guard let filter = av_bsf_get_by_name(name) else {
        throw .libav(call: "av_bsf_get_by_name", code: -22, message: "no filter named \(name)")
      }
      try LibAVCall.check(av_bsf_alloc(filter, &context), "av_bsf_alloc")
      guard let context else { throw LibAVCall.error(-12, "av_bsf_alloc") }
      try LibAVCall.check(
        avcodec_parameters_copy(context.pointee.par_in, parameters), "avcodec_parameters_copy")
      context.pointee.time_base_in = timeBase
      try LibAVCall.check(av_bsf_init(context), "av_bsf_init")
    }

    deinit { av_bsf_free(&context) }

    /// The parameters of the filtered stream, for the output stream.
    var outputParameters: UnsafePointer<AVCodecParameters> {
      UnsafePointer(context!.pointee.par_out)
    }

    /// Filters `packet` in place: one packet in, one packet out, as `aac_adtstoasc` does.
    func filter(_ packet: Packet) throws(ExportError) {
      try LibAVCall.check(av_bsf_send_packet(context, packet.pointer), "av_bsf_send_packet")
      try LibAVCall.check(
        av_bsf_receive_packet(context, packet.pointer), "av_bsf_receive_packet")
    }
  }
#endif
