import Foundation

/// A parsed `Retry-After` header (RFC 9110, section 10.2.3): a delay in seconds or an
/// HTTP date.
public enum RetryAfter {
  /// The delay the header asks for, measured from `now`; nil when the value is malformed.
  /// A date in the past gives zero.
  public static func delay(from value: String, now: Date = Date()) -> Duration? {
    let text = Substring(value).trimmingSpaces()
    if let seconds = Int64(digits: text) {
      return .seconds(seconds)
    }
    guard let date = HTTPDate.parse(String(text)) else { return nil }
    let interval = max(0, date.timeIntervalSince(now))
    return .milliseconds(Int64(interval * 1000))
  }
}
