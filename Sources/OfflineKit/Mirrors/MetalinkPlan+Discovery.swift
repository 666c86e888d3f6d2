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
    if let type = head.headers["Content-Type"]?.split(separator: ";").first.map(mediaType),
      mediaTypes.contains(type)
    {
      return head.url
    }
    return MirrorLinks(fieldValues: head.headers.values(for: "Link"), responseURL: head.url)
      .metalinks.first
  }

  /// The media type of a `Content-Type` value's first part: without the spaces and tabs
  /// around it (RFC 9110 section 5.6.3), lowercased. Every answer of a queue's files asks,
  /// and Foundation's `trimmingCharacters(in:)` was 0.8 % of the runner's samples.
  private static func mediaType(_ part: Substring) -> String {
    let isBlank = { (character: Character) in character == " " || character == "\t" }
    guard let first = part.firstIndex(where: { !isBlank($0) }),
      let last = part.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return part[first...last].lowercased()
  }
}
