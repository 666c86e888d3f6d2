import Foundation

extension RequestOptions {
  /// Checks the options before anything is fetched with them: every header field a valid
  /// `Name: value` without line breaks, the user agent and referer without line breaks, the
  /// cookies file readable and well-formed, the netrc file readable, each trusted origin an
  /// http or https URL with a host.
  ///
  /// - Throws: ``RequestOptionError`` naming the option (and the file and line, never a
  ///   header value or cookie).
  public func validate() throws(RequestOptionError) {
    for field in headers {
      _ = try HTTPHeaders.Field(parsingHeaderLine: "\(field.name): \(field.value)")
    }
    for (option, text) in [("--user-agent", userAgent), ("--referer", referer)] {
      if let text, text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
        throw RequestOptionError(option: option, message: "it may not hold a line break or a NUL")
      }
    }
    if let credentials, credentials.user.isEmpty {
      throw RequestOptionError(option: "--user", message: "the user name is empty")
    }
    if let cookieFile {
      _ = try CookieFile.validate(Self.read(cookieFile, option: "--cookies"), path: cookieFile)
    }
    if let netrcFile, !netrcFile.isEmpty {
      _ = try Self.read(netrcFile, option: "--netrc-file")
    }
    try validateTrustedOrigins()
  }

  private static func read(_ path: String, option: String) throws(RequestOptionError) -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RequestOptionError(option: option, message: "cannot read \(path)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw RequestOptionError(option: option, message: "\(path) is not UTF-8 text")
    }
    return text
  }
}
