import Foundation

/// Reading Metalink 4 (RFC 5854 §4).
extension MetalinkParser {
  /// The document-level values of a Metalink 4 root, and a checked result per `file`.
  static func version4(
    _ root: MetalinkElement
  ) -> (MetalinkDocument, [Result<MetalinkFile, MetalinkError>]) {
    let origin = root.child("origin")
    let document = MetalinkDocument(
      format: .metalink4, files: [], generator: root.childText("generator"),
      origin: origin?.text, isDynamic: origin?.attribute("dynamic") == "true",
      published: root.childText("published").flatMap(MetalinkDates.rfc3339),
      updated: root.childText("updated").flatMap(MetalinkDates.rfc3339))
    let files = root.children("file").map { MetalinkFileRules.check(version4File($0)) }
    return (document, files)
  }

  /// What one Metalink 4 `file` element says, before the rules.
  private static func version4File(_ element: MetalinkElement) -> MetalinkFileRules.Draft {
    var draft = MetalinkFileRules.Draft(path: element.path)
    draft.name = element.attribute("name")
    draft.size = element.child("size").map { $0.text ?? "" }
    draft.hashes = element.children("hash").map { ($0.attribute("type"), $0.text) }
    draft.pieces = element.children("pieces").map { pieces in
      MetalinkFileRules.Pieces(
        type: pieces.attribute("type"), length: pieces.attribute("length"),
        hashes: pieces.children("hash").map(\.text))
    }
    draft.urls = element.children("url").compactMap { url in
      guard let text = url.text else { return nil }
      return MetalinkURL(
        text: text, priority: priority(url.attribute("priority")),
        location: location(url.attribute("location")))
    }
    draft.file.metaURLs = element.children("metaurl").compactMap { meta in
      guard let text = meta.text else { return nil }
      return MetalinkMetaURL(
        text: text, mediaType: meta.attribute("mediatype") ?? "",
        priority: priority(meta.attribute("priority")), name: meta.attribute("name"))
    }
    draft.file.identity = element.childText("identity")
    draft.file.version = element.childText("version")
    draft.file.description = element.childText("description")
    draft.file.copyright = element.childText("copyright")
    draft.file.languages = element.childTexts("language")
    draft.file.operatingSystems = element.childTexts("os")
    draft.file.signature = element.child("signature").map {
      MetalinkSignature(mediaType: $0.attribute("mediatype"), text: $0.node.text)
    }
    return draft
  }

  /// A priority from 1 to 999999 (RFC 5854 §4.2.16.2), or nil.
  static func priority(_ text: String?) -> Int? {
    guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.count <= 6,
      text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text),
      (1...999_999).contains(value)
    else { return nil }
    return value
  }

  /// An ISO 3166-1 alpha-2 code in lowercase, or nil.
  static func location(_ text: String?) -> String? {
    guard let text = text?.trimmingCharacters(in: .whitespaces), text.utf8.count == 2,
      text.utf8.allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) })
    else { return nil }
    return text.lowercased()
  }
}
