import Foundation

extension HLSSteering {
  /// One entry of a steering manifest's `PATHWAY-CLONES` (the HLS Content Steering
  /// specification, "Pathway Cloning"): a new pathway `ID` whose variants and renditions are
  /// those of pathway `BASE-ID` at URIs its `URI-REPLACEMENT` rewrites
  /// (``HLSSteering/cloned(_:by:playlistURL:manifestURL:)``).
  struct Clone: Sendable, Equatable {
    /// `BASE-ID`: the pathway copied.
    var baseID: String
    /// `ID`: the new pathway's name.
    var id: String
    /// `URI-REPLACEMENT.HOST`: the host (and port, when it names one) of the copies' URIs;
    /// nil keeps each URI's own.
    var host: String?
    /// `URI-REPLACEMENT.PARAMS`: query parameters set on every copied URI (replacing one of
    /// the same name).
    var params: [String: String] = [:]
    /// `URI-REPLACEMENT.PER-VARIANT-URIS`: by `STABLE-VARIANT-ID`, a variant's URI in the clone.
    var perVariantURIs: [String: String] = [:]
    /// `URI-REPLACEMENT.PER-RENDITION-URIS`: by `STABLE-RENDITION-ID`, a rendition's URI.
    var perRenditionURIs: [String: String] = [:]
  }

  /// The most clones read from one manifest.
  static let clonesLimit = 64

  /// The clones of a manifest's `PATHWAY-CLONES` value, at most ``clonesLimit``, and a
  /// sentence for each entry left out because it is malformed (never a crash, whatever the
  /// JSON holds): not an object, a `BASE-ID` or `ID` that is not a pathway name, a
  /// `URI-REPLACEMENT` that is missing or holds a value of the wrong type, a `HOST` that is
  /// not a host name (with an optional port). No value gives no clones.
  static func clones(of value: Any?) -> (clones: [Clone], ignored: [String]) {
    guard let value else { return ([], []) }
    guard let list = value as? [Any] else {
      return ([], ["PATHWAY-CLONES is not a list"])
    }
    var clones: [Clone] = []
    var ignored: [String] = []
    for (index, entry) in list.enumerated() {
      guard clones.count < clonesLimit else {
        ignored.append("PATHWAY-CLONES has more than \(clonesLimit) entries; the rest are ignored")
        break
      }
      switch clone(of: entry) {
      case .success(let clone): clones.append(clone)
      case .failure(let problem): ignored.append("pathway clone \(index + 1) \(problem.reason)")
      }
    }
    return (clones, ignored)
  }

  /// Why a clone entry was left out.
  struct CloneProblem: Error {
    var reason: String
  }

  private static func clone(of entry: Any) -> Result<Clone, CloneProblem> {
    guard let object = entry as? [String: Any] else {
      return .failure(CloneProblem(reason: "is not an object"))
    }
    guard let base = object["BASE-ID"] as? String, isPathwayID(base) else {
      return .failure(CloneProblem(reason: "has no valid BASE-ID"))
    }
    guard let id = object["ID"] as? String, isPathwayID(id) else {
      return .failure(CloneProblem(reason: "has no valid ID"))
    }
    guard let replacement = object["URI-REPLACEMENT"] as? [String: Any] else {
      return .failure(CloneProblem(reason: "(\(id)) has no URI-REPLACEMENT object"))
    }
    var clone = Clone(baseID: base, id: id)
    if let host = replacement["HOST"] {
      guard let text = host as? String, isHost(text) else {
        return .failure(CloneProblem(reason: "(\(id)) has a HOST that is not a host name"))
      }
      clone.host = text
    }
    for (key, path) in [
      ("PARAMS", \Clone.params), ("PER-VARIANT-URIS", \Clone.perVariantURIs),
      ("PER-RENDITION-URIS", \Clone.perRenditionURIs),
    ] as [(String, WritableKeyPath<Clone, [String: String]>)] {
      guard let raw = replacement[key] else { continue }
      guard let strings = raw as? [String: Any],
        let map = strings as? [String: String], !map.keys.contains("")
      else {
        return .failure(
          CloneProblem(reason: "(\(id)) has a \(key) that is not an object of strings"))
      }
      clone[keyPath: path] = map
    }
    return .success(clone)
  }

  /// Whether `text` is a legal pathway ID: letters, digits, `.`, `-` and `_`, not empty.
  static func isPathwayID(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 256
      && text.unicodeScalars.allSatisfy {
        isLetterOrDigit($0) || $0 == "." || $0 == "-" || $0 == "_"
      }
  }

  /// Whether `text` is a host name or IPv4 address (letters, digits, `.`, `-`), or a
  /// bracketed IPv6 address, with an optional `:port` of 1 to 5 digits.
  static func isHost(_ text: String) -> Bool {
    hostAndPort(text) != nil
  }

  /// `text` split into host and port; nil when it is not a host as ``isHost(_:)`` says.
  static func hostAndPort(_ text: String) -> (host: String, port: Int?)? {
    guard !text.isEmpty, text.count <= 255 else { return nil }
    let host: Substring
    let rest: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[...close]
      rest = text[text.index(after: close)...]
      let inside = host.dropFirst().dropLast().unicodeScalars
      guard !inside.isEmpty,
        inside.allSatisfy({ isHexDigit($0) || $0 == ":" || $0 == "." })
      else { return nil }
    } else {
      let colon = text.firstIndex(of: ":") ?? text.endIndex
      host = text[..<colon]
      rest = text[colon...]
      guard !host.isEmpty,
        host.unicodeScalars.allSatisfy({ isLetterOrDigit($0) || $0 == "." || $0 == "-" })
      else { return nil }
    }
    guard !rest.isEmpty else { return (String(host), nil) }
    let digits = rest.dropFirst()
    guard rest.first == ":", (1...5).contains(digits.count),
      digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
      let port = Int(digits), (1...65535).contains(port)
    else { return nil }
    return (String(host), port)
  }

  private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
    ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
  }

  private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
  }
}
