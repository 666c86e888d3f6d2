import Foundation
import OfflineHTTP

/// A rate limit as the service's clients write it: `POST /api/rate-limit`'s `limit` and
/// aria2's `max-overall-download-limit`.
///
/// A number of bytes per second (a JSON number or a string), or a string with a unit as
/// curl and aria2 write it (`500K`, `2M`, `1G`: powers of 1024); `0`, `"0"` and JSON `null`
/// mean no limit, as in aria2.
enum RateLimitText {
  /// The cap `value` asks for, nil for no limit; a sentence saying what to give instead
  /// when `value` is not a rate.
  static func parse(_ value: Any?) -> Result<ByteRate?, Failure> {
    switch value {
    case nil, is NSNull:
      return .success(nil)
    case let number as NSNumber:
      guard number.doubleValue >= 0, number.doubleValue < 1e15 else { return .failure(Failure()) }
      let bytes = number.int64Value
      return .success(bytes == 0 ? nil : ByteRate(bytesPerSecond: bytes))
    case let text as String:
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if trimmed == "0" { return .success(nil) }
      do throws(RequestOptionError) {
        return .success(try ByteRate(parsing: trimmed))
      } catch {
        return .failure(Failure())
      }
    default:
      return .failure(Failure())
    }
  }

  /// `value` is not a rate.
  struct Failure: Error {
    /// What to give instead, for the client.
    let message =
      "The limit must be bytes per second, such as 65536, \"500K\", \"2M\" or \"1G\""
      + " (powers of 1024), or 0 or null for no limit."
  }
}
