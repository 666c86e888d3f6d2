/// A user name and password for HTTP Basic authentication (RFC 7617).
public struct Credentials: Sendable, Equatable {
  /// The user name; never empty.
  public var user: String
  /// The password; may be empty.
  public var password: String

  /// Creates credentials.
  ///
  /// - Throws: ``RequestOptionError`` when `user` is empty.
  public init(user: String, password: String) throws(RequestOptionError) {
    guard !user.isEmpty else {
      throw RequestOptionError(option: "--user", message: "the user name is empty")
    }
    self.user = user
    self.password = password
  }

  /// Parses `USER[:PASSWORD]` as curl's `-u` takes it (the first colon splits); the password
  /// is nil when no colon was given, so the caller can ask for it.
  public static func parse(_ text: String) throws(RequestOptionError) -> (
    user: String, password: String?
  ) {
    let user: Substring
    var password: String?
    if let colon = text.firstIndex(of: ":") {
      user = text[..<colon]
      password = String(text[text.index(after: colon)...])
    } else {
      user = Substring(text)
    }
    guard !user.isEmpty else {
      throw RequestOptionError(option: "--user", message: "the user name is empty")
    }
    return (String(user), password)
  }
}
