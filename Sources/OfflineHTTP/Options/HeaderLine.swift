extension HTTPHeaders.Field {
  /// Parses a header as curl's `-H` takes it: `Name: value`.
  ///
  /// - Throws: ``RequestOptionError`` (for `--header`) when there is no colon, the name is
  ///   empty or not a token (RFC 9110 section 5.1), or the text holds a CR, LF or NUL (which
  ///   would smuggle another header into the request). The value is not repeated in the
  ///   message: it may be a secret.
  public init(parsingHeaderLine text: String) throws(RequestOptionError) {
    guard !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
    else {
      throw RequestOptionError(
        option: "--header", message: "a header may not hold a line break or a NUL")
    }
    guard let colon = text.firstIndex(of: ":") else {
      // Not repeated: a header without a colon is often a token pasted alone.
      throw RequestOptionError(
        option: "--header", message: "a header needs a colon between name and value ('Name: value')"
      )
    }
    let name = String(text[..<colon])
    guard !name.isEmpty else {
      throw RequestOptionError(
        option: "--header", message: "a header needs a name before its colon")
    }
    let token = name.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7F
        && !"\"(),/:;<=>?@[\\]{}".unicodeScalars.contains(scalar)
    }
    guard token else {
      throw RequestOptionError(
        option: "--header", message: "'\(name.prefix(40))' is not a header name")
    }
    self.init(name: name, value: text[text.index(after: colon)...].trimmingHTTPWhitespace())
  }
}
