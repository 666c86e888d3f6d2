import Foundation

extension MetalinkPlan {
  /// The most bytes of a Metalink document read, from a file or a URL.
  package static let documentLimit = 8 << 20

  /// The plan of the Metalink at `url`, fetched through `session` (at most
  /// ``documentLimit`` bytes).
  ///
  /// - Throws: ``Problem`` naming the document when it cannot be fetched, is too large, or
  ///   is no usable Metalink (see ``make(from:document:)``).
  package static func fetch(_ url: URL, session: ContentSession) async throws(Problem)
    -> MetalinkPlan
  {
    let document = url.redactedForDisplay
    let data: Data
    do {
      data = try await session.data(from: url, limit: documentLimit, destination: "")
    } catch {
      throw Problem(document: document, reason: error.description)
    }
    return try read(data, document: document)
  }

  /// The plan of the Metalink document `data`, named `document` in errors.
  ///
  /// - Throws: ``Problem`` when it is larger than ``documentLimit`` or no usable Metalink.
  package static func read(_ data: Data, document: String) throws(Problem) -> MetalinkPlan {
    guard data.count <= documentLimit else {
      throw Problem(document: document, reason: "it is larger than 8 MiB")
    }
    return try make(from: data, document: document)
  }
}
