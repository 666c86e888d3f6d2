import Foundation
import OfflineKit

/// What `offline get` is given: an http or https URL, or the path of a Metalink file
/// (`.meta4`, `.metalink`) on this machine.
enum GetTarget: Sendable, Equatable {
  /// A URL (a file, a stream, or a Metalink by its extension).
  case url(URL)
  /// A local Metalink file, as given (relative to the current folder unless absolute).
  case metalinkFile(String)
}

extension ValueParser where Value == GetTarget {
  /// An http or https URL with a host, or a path ending in `.meta4` or `.metalink` (kept as
  /// given, not made absolute: a URL is read first, and the message names the path as
  /// typed).
  static var getTarget: ValueParser<GetTarget> {
    ValueParser("an http or https URL, or a .meta4 or .metalink file") {
      text in
      if let url = URL(string: text), url.isHTTPWithHost { return .url(url) }
      let lowered = text.lowercased()
      guard lowered.hasSuffix(".meta4") || lowered.hasSuffix(".metalink"), !text.contains("://")
      else { return nil }
      return .metalinkFile(text)
    }
  }
}
