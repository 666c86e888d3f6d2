import Foundation
import Metalink
import OfflineHTTP

/// What a response says of the file beside its bytes: other URLs serving the same bytes
/// (RFC 6249 `Link: <url>; rel=duplicate`, best first by `pref` and `pri`; `geo` does not
/// reorder them) and the whole file's SHA-256 (RFC 9530 `Repr-Digest: sha-256=:…:`, else the
/// older RFC 3230 `Digest: SHA-256=…`), which every source must agree on and the finished
/// file is checked against.
struct ResponseHints: Sendable, Equatable {
  /// The duplicates the response names, best first (http and https only).
  var mirrors: [URL] = []
  /// The whole file's SHA-256 as lowercase hex, when the response gives one.
  var sha256: String?

  /// No hints.
  init() {}

  /// The hints of `head` (relative links resolved against the URL that answered).
  init(_ head: HTTPResponseHead) {
    mirrors = MirrorLinks(fieldValues: head.headers.values(for: "Link"), responseURL: head.url)
      .orderedDuplicates().map(\.url)
    sha256 = Self.sha256(of: head)
  }

  /// The whole file's SHA-256 `head` gives (`Repr-Digest`, else `Digest`), lowercase hex;
  /// nil with a content coding other than `identity`, where the digest covers the coded
  /// bytes and not the file as saved.
  static func sha256(of head: HTTPResponseHead) -> String? {
    if let coding = head.headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces),
      !coding.isEmpty, coding.lowercased() != "identity"
    {
      return nil
    }
    let digests = HTTPDigests(fields: head.headers.map { (name: $0.name, value: $0.value) })
    return digests.representation.first { $0.algorithm == .sha256 }?.hex.lowercased()
  }
}
