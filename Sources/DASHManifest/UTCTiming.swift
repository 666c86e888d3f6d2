import Foundation
import XMLTree

/// A `UTCTiming` element (ISO/IEC 23009-1 §5.8.4.11, DASH-IF IOP §4.7): where a client reads
/// the wall-clock time that the availability of a live presentation's segments is counted in.
public struct UTCTiming: Sendable, Equatable {
  /// How `value` gives the time.
  public enum Scheme: Sendable, Equatable {
    /// `urn:mpeg:dash:utc:http-iso:2014`: a GET of the URL in `value` answers an ISO 8601
    /// date and time.
    case httpISO
    /// `urn:mpeg:dash:utc:http-xsdate:2014`: a GET of the URL in `value` answers an
    /// `xs:dateTime`.
    case httpXSDate
    /// `urn:mpeg:dash:utc:direct:2014`: `value` is the `xs:dateTime` itself, as of when the
    /// MPD was made.
    case direct
    /// A scheme this module does not read (`http-head`, `ntp`, `sntp`, `http-ntp`), by its
    /// URI.
    case other(String)

    /// The scheme named by `uri`; the 2012 URNs some servers still write count as the 2014
    /// ones.
    public init(uri: String) {
      switch uri {
      case "urn:mpeg:dash:utc:http-iso:2014", "urn:mpeg:dash:utc:http-iso:2012": self = .httpISO
      case "urn:mpeg:dash:utc:http-xsdate:2014", "urn:mpeg:dash:utc:http-xsdate:2012":
        self = .httpXSDate
      case "urn:mpeg:dash:utc:direct:2014", "urn:mpeg:dash:utc:direct:2012": self = .direct
      default: self = .other(uri)
      }
    }

    /// The scheme's URI, the 2014 one for those this module reads.
    public var uri: String {
      switch self {
      case .httpISO: "urn:mpeg:dash:utc:http-iso:2014"
      case .httpXSDate: "urn:mpeg:dash:utc:http-xsdate:2014"
      case .direct: "urn:mpeg:dash:utc:direct:2014"
      case .other(let uri): uri
      }
    }
  }

  /// `@schemeIdUri`, read.
  public var scheme: Scheme
  /// `@value`: a URL (or several, separated by spaces) or a time, as the scheme says.
  public var value: String

  /// Creates a timing source.
  public init(scheme: Scheme, value: String) {
    self.scheme = scheme
    self.value = value
  }

  /// For `direct`: the instant `value` says; nil for another scheme or a value that is not
  /// an `xs:dateTime`.
  public var directDate: Date? {
    guard scheme == .direct else { return nil }
    return XSDateTime.date(value.trimmingASCIIWhitespace())
  }

  /// Reads the body of an `http-iso` or `http-xsdate` answer: an ISO 8601 / `xs:dateTime`
  /// date and time, whitespace around it ignored; nil when it is not one.
  public static func date(fromBody text: String) -> Date? {
    XSDateTime.date(text.trimmingASCIIWhitespace())
  }
}
