import Foundation
import Metalink

/// What a Metalink (RFC 5854, or Metalink 3) makes of one download: the file's safe name,
/// size, SHA-256 and piece hashes, and its http(s) URLs by priority, the first the primary
/// and the others its mirrors.
package struct MetalinkPlan: Sendable, Equatable {
  /// Why a Metalink cannot be downloaded; the description names the document.
  package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document (a path or a URL, redacted).
    package var document: String
    /// What is wrong, as the end of a sentence.
    package var reason: String

    /// A problem of `document`, for `reason`.
    package init(document: String, reason: String) {
      self.document = document
      self.reason = reason
    }

    package var description: String {
      let sentence = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
      return "The Metalink \(document) cannot be downloaded: \(sentence)."
    }
  }

  /// The relative name to save the file under; the parser refused any that could leave the
  /// output folder.
  package var name: String
  /// The file's length, when the document gives it.
  package var size: Int64?
  /// The whole file's SHA-256 as lowercase hex, when the document gives one.
  package var sha256: String?
  /// The SHA-256 piece hashes, when the document gives them.
  package var pieces: PieceChecks?
  /// The URL to start from (the best by priority).
  package var primary: URL
  /// The other usable http(s) URLs, best first.
  package var mirrors: [URL]

  /// The plan of `data`, the Metalink at `document` (a path or a URL, for messages).
  ///
  /// - Throws: ``Problem`` when the document is not a Metalink, describes no file or more
  ///   than one, or its file has no http or https URL (a file whose name would leave the
  ///   output folder is refused by the parser, and so there is no file).
  package static func make(from data: Data, document: String) throws(Problem) -> MetalinkPlan {
    let parsed: MetalinkDocument
    do {
      parsed = try MetalinkParser.parse(data)
    } catch {
      throw Problem(document: document, reason: error.description)
    }
    guard let file = parsed.files.first else {
      let why = parsed.refusedFiles.first.map(\.description) ?? "it describes no file"
      throw Problem(document: document, reason: why)
    }
    guard parsed.files.count == 1, parsed.refusedFiles.isEmpty else {
      throw Problem(
        document: document,
        reason: "it describes \(parsed.files.count + parsed.refusedFiles.count) files;"
          + " offline get takes one")
    }
    let urls = file.usableURLs().compactMap(\.url).filter(\.isHTTPWithHost)
    guard let primary = urls.first else {
      throw Problem(document: document, reason: "\(file.name) has no http or https URL")
    }
    let size = file.size.flatMap { Int64(exactly: $0) }
    let sha256 = file.hashes.first { $0.algorithm == .sha256 }?.hex
    let pieces = file.pieces.first { $0.algorithm == .sha256 }.flatMap { hashes in
      size.map { PieceChecks(hashes, size: $0) }
    }
    return MetalinkPlan(
      name: file.name, size: size, sha256: sha256, pieces: pieces ?? nil, primary: primary,
      mirrors: Array(urls.dropFirst()))
  }

  /// Whether `url` names a Metalink by its extension (`.meta4`, `.metalink`).
  package static func isMetalink(_ url: URL) -> Bool {
    ["meta4", "metalink"].contains(url.pathExtension.lowercased())
  }
}
