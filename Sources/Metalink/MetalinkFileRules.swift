/// The rules a file's description must pass, applied to what the format readers gathered.
/// Each failure refuses the file with a ``MetalinkError`` at the file's path.
enum MetalinkFileRules {
  /// What a format reader gathered for one file, before the rules.
  struct Draft {
    /// The file element's path, such as `metalink/file[2]`.
    var path: String
    /// The `name` attribute, nil when absent.
    var name: String?
    /// The text of `size`, nil when absent.
    var size: String?
    /// Each whole-file hash: its `type` and its text.
    var hashes: [(type: String?, text: String?)] = []
    /// Each `pieces` element.
    var pieces: [Pieces] = []
    /// The URLs, usable or not.
    var urls: [MetalinkURL] = []
    /// The file with its other fields filled; name, size, hashes, pieces and URLs are set
    /// by ``check(_:)``.
    var file = MetalinkFile(name: "")
  }

  /// What a `pieces` element says, before the rules.
  struct Pieces {
    /// The `type` attribute.
    var type: String?
    /// The `length` attribute.
    var length: String?
    /// The hashes in file order.
    var hashes: [String?]
    /// Whether Metalink 3 `piece` numbers were not each of 0 to count - 1 once.
    var misnumbered = false
  }

  /// The path of the file at `index` among a document's files, for messages.
  static func path(of index: Int, _ format: MetalinkDocument.Format) -> String {
    format == .metalink4 ? "metalink/file[\(index + 1)]" : "metalink/files/file[\(index + 1)]"
  }

  /// The file `draft` describes, or why it is refused.
  static func check(_ draft: Draft) -> Result<MetalinkFile, MetalinkError> {
    Result { () throws(MetalinkError) -> MetalinkFile in
      var file = draft.file
      file.name = try name(draft)
      let shownName = MetalinkError.shown(file.name)
      file.size = try size(draft, shownName)
      file.hashes = try hashes(draft, shownName)
      file.pieces = try pieces(draft, shownName, size: file.size)
      file.urls = draft.urls
      guard file.urls.contains(where: \.isUsable) else {
        throw noUsableURL(draft, shownName, metaURLs: file.metaURLs.count)
      }
      return file
    }
  }

  private static func name(_ draft: Draft) throws(MetalinkError) -> String {
    guard let name = draft.name else {
      throw MetalinkError(.unsafeFileName, at: draft.path, "The file has no name attribute.")
    }
    if let problem = FileNameRule.problem(with: name) {
      throw MetalinkError(
        .unsafeFileName, at: draft.path,
        "The file name '\(MetalinkError.shown(name))' \(problem); a Metalink name must be a "
          + "relative path inside the output folder (RFC 5854 §4.1.2.1).")
    }
    return name
  }

  private static func size(_ draft: Draft, _ name: String) throws(MetalinkError) -> UInt64? {
    guard let text = draft.size else { return nil }
    guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let size = UInt64(text) else {
      throw MetalinkError(
        .invalidSize, at: draft.path,
        "The size '\(MetalinkError.shown(text))' of '\(name)' is not a whole number of bytes.")
    }
    return size
  }

  private static func hashes(_ draft: Draft, _ name: String) throws(MetalinkError) -> [Checksum] {
    var result: [Checksum] = []
    for (type, text) in draft.hashes {
      guard let type, let algorithm = HashAlgorithm(name: type) else { continue }
      let checksum = try checksum(algorithm, text, draft.path, "The \(type) hash of '\(name)'")
      if let other = result.first(where: { $0.algorithm == algorithm }) {
        guard other == checksum else {
          throw MetalinkError(
            .invalidHash, at: draft.path,
            "'\(name)' has two different \(algorithm.name) hashes; the Metalink contradicts "
              + "itself.")
        }
        continue
      }
      result.append(checksum)
    }
    return result
  }

  private static func pieces(
    _ draft: Draft, _ name: String, size: UInt64?
  ) throws(MetalinkError) -> [PieceHashes] {
    var result: [PieceHashes] = []
    for element in draft.pieces {
      guard let type = element.type, let algorithm = HashAlgorithm(name: type),
        !result.contains(where: { $0.algorithm == algorithm })
      else { continue }
      guard !element.misnumbered else {
        throw MetalinkError(
          .invalidPieces, at: draft.path,
          "The \(type) piece hashes of '\(name)' are not numbered 0, 1, 2 and on, each number "
            + "once, so their order is unknown.")
      }
      let lengthText = element.length
      guard let lengthText, lengthText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
        let length = UInt64(lengthText), length > 0
      else {
        throw MetalinkError(
          .invalidPieces, at: draft.path,
          "The piece length '\(MetalinkError.shown(lengthText ?? ""))' of '\(name)' is not a "
            + "whole number of bytes above 0.")
      }
      var hashes: [[UInt8]] = []
      for (index, text) in element.hashes.enumerated() {
        let what = "The \(type) hash of piece \(index) of '\(name)'"
        hashes.append(try checksum(algorithm, text, draft.path, what).bytes)
      }
      if let size {
        let expected = PieceHashes.expectedCount(size: size, length: length)
        guard UInt64(hashes.count) == expected else {
          throw MetalinkError(
            .invalidPieces, at: draft.path,
            "'\(name)' has \(hashes.count) \(type) piece hashes, but \(size) bytes in pieces of "
              + "\(length) make \(expected).")
        }
      }
      result.append(
        PieceHashes(algorithm: algorithm, length: length, hashes: hashes, fileSize: size))
    }
    return result
  }

  private static func checksum(
    _ algorithm: HashAlgorithm, _ text: String?, _ path: String, _ what: String
  ) throws(MetalinkError) -> Checksum {
    guard let text, let checksum = Checksum(algorithm, hex: text) else {
      throw MetalinkError(
        .invalidHash, at: path,
        "\(what) is not \(algorithm.digestLength * 2) hexadecimal digits.")
    }
    return checksum
  }

  private static func noUsableURL(_ draft: Draft, _ name: String, metaURLs: Int) -> MetalinkError {
    var listed: [String] = []
    if !draft.urls.isEmpty {
      let reasons = Set(draft.urls.compactMap(\.unusableReason)).sorted()
      listed.append(
        "\(draft.urls.count) URL\(draft.urls.count == 1 ? "" : "s") we do not follow ("
          + reasons.joined(separator: " ") + ")")
    }
    if metaURLs > 0 {
      listed.append("\(metaURLs) metaurl\(metaURLs == 1 ? "" : "s") (torrents and the like)")
    }
    let has = listed.isEmpty ? "no URL at all" : listed.joined(separator: " and ")
    return MetalinkError(
      .noUsableURL, at: draft.path,
      "'\(name)' has no http or https URL to download it from: it has \(has).")
  }
}
