/// Reading Metalink 3.0, mapped into the same model: `files/file`, `verification` for hashes
/// and pieces, `resources/url` with `preference` from 0 to 100 (100 the best) and `type`.
extension MetalinkParser {
  /// The document-level values of a Metalink 3 root, and a checked result per `file`.
  static func version3(
    _ root: MetalinkElement
  ) -> (MetalinkDocument, [Result<MetalinkFile, MetalinkError>]) {
    let document = MetalinkDocument(
      format: .metalink3, files: [], generator: root.attribute("generator"),
      origin: root.attribute("origin"), isDynamic: root.attribute("type") == "dynamic",
      published: root.attribute("pubdate").flatMap(MetalinkDates.rfc822),
      updated: root.attribute("refreshdate").flatMap(MetalinkDates.rfc822))
    let files = (root.child("files")?.children("file") ?? []).map { file in
      MetalinkFileRules.check(version3File(file))
    }
    return (document, files)
  }

  /// What one Metalink 3 `file` element says, before the rules.
  private static func version3File(_ element: MetalinkElement) -> MetalinkFileRules.Draft {
    var draft = MetalinkFileRules.Draft(path: element.path)
    draft.name = element.attribute("name")
    draft.size = element.child("size").map { $0.text ?? "" }
    if let verification = element.child("verification") {
      draft.hashes = verification.children("hash").map { ($0.attribute("type"), $0.text) }
      draft.pieces = verification.children("pieces").map { pieces in
        let ordered = orderedPieceHashes(pieces)
        return MetalinkFileRules.Pieces(
          type: pieces.attribute("type"), length: pieces.attribute("length"),
          hashes: ordered ?? [], misnumbered: ordered == nil)
      }
      draft.file.signature = verification.child("signature").map {
        MetalinkSignature(mediaType: $0.attribute("type"), text: $0.node.text)
      }
    }
    for url in element.child("resources")?.children("url") ?? [] {
      guard let text = url.text else { continue }
      let priority = preferenceAsPriority(url.attribute("preference"))
      if url.attribute("type")?.lowercased() == "bittorrent" {
        draft.file.metaURLs.append(
          MetalinkMetaURL(text: text, mediaType: "torrent", priority: priority))
      } else {
        draft.urls.append(
          MetalinkURL(text: text, priority: priority, location: location(url.attribute("location")))
        )
      }
    }
    draft.file.identity = element.childText("identity")
    draft.file.version = element.childText("version")
    draft.file.description = element.childText("description")
    draft.file.copyright = element.childText("copyright")
    draft.file.languages = element.childTexts("language")
    draft.file.operatingSystems = element.childTexts("os")
    return draft
  }

  /// The piece hashes in the order their `piece` numbers give; nil when the numbers are not
  /// exactly 0 to count - 1, each once.
  private static func orderedPieceHashes(_ pieces: MetalinkElement) -> [String?]? {
    let hashes = pieces.children("hash")
    var ordered = [String?](repeating: nil, count: hashes.count)
    var seen = Set<Int>()
    for hash in hashes {
      guard let number = hash.attribute("piece").flatMap(pieceNumber),
        number < hashes.count, seen.insert(number).inserted
      else { return nil }
      ordered[number] = hash.text
    }
    return ordered
  }

  private static func pieceNumber(_ text: String) -> Int? {
    guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    return Int(text)
  }

  /// A Metalink 3 preference (0 to 100, 100 the best) as a Metalink 4 priority (1 the best):
  /// 101 - preference; nil when absent or out of range.
  static func preferenceAsPriority(_ text: String?) -> Int? {
    guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.count <= 3,
      text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text),
      (0...100).contains(value)
    else { return nil }
    return 101 - value
  }
}
