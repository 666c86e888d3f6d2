import Foundation
import Metalink
import OfflineHTTP

extension MetalinkPlan {
  /// The media types a Metalink document is served as: Metalink 4 (RFC 5854) and Metalink 3.
  package static let mediaTypes: Set<String> = [
    "application/metalink4+xml", "application/metalink+xml",
  ]

  /// The Metalink `head` points at, when it does: the URL that answered, when its
  /// `Content-Type` is a Metalink's (``mediaTypes``), else the first RFC 6249 `Link: <…>;
  /// rel=describedby; type="application/metalink4+xml"` (relative ones resolved against the
  /// URL that answered). Nil for any status other than 2xx.
  package static func describing(_ head: HTTPResponseHead) -> URL? {
    guard (200...299).contains(head.status) else { return nil }
    if let type = head.headers["Content-Type"]?.split(separator: ";").first?
      .trimmingCharacters(in: .whitespaces).lowercased(), mediaTypes.contains(type)
    {
      return head.url
    }
    return MirrorLinks(fieldValues: head.headers.values(for: "Link"), responseURL: head.url)
      .metalinks.first
  }
}
