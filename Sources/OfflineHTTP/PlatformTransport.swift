/// The transport a component uses when it is given none.
///
/// ``CurlTransport`` where libcurl is linked (Linux), ``URLSessionTransport`` elsewhere
/// (Apple platforms, where `CCurl` is not a dependency).
public enum PlatformTransport {
  /// A new transport of the platform's kind, with the default configuration.
  public static func make() -> any HTTPTransporting {
    #if canImport(CCurl)
      CurlTransport()
    #else
      URLSessionTransport()
    #endif
  }
}
