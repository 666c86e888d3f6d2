#if canImport(CAVFormat)
  import CAVFormat

  /// Turns libav's negative return codes into ``ExportError/libav(call:code:message:)``.
  enum LibAVCall {
    /// Returns `code` when it is not an error, else throws with libav's message for it.
    @discardableResult
    static func check(_ code: Int32, _ call: String) throws(ExportError) -> Int32 {
      guard code < 0 else { return code }
      throw error(code, call)
    }

    /// The error for a failed call.
    static func error(_ code: Int32, _ call: String) -> ExportError {
      .libav(call: call, code: code, message: message(code))
    }

    /// libav's sentence for an error code (`av_strerror`).
    static func message(_ code: Int32) -> String {
      var buffer = [CChar](repeating: 0, count: 256)
      av_strerror(code, &buffer, buffer.count)
      return String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }
#endif
