import Foundation

/// What a response's `Link` fields say about where else its file is (RFC 6249): mirrors
/// (`rel=duplicate`) and Metalink descriptions (`rel=describedby;
/// type="application/metalink4+xml"`). Other links are ignored.
///
/// ```swift
/// // Link: <http://ftp.example.de/pub/f.iso>; rel=duplicate; pri=1; geo=de,
/// //       <f.iso.meta4>; rel=describedby; type="application/metalink4+xml"
/// let links = MirrorLinks(fieldValues: response.values(for: "Link"), responseURL: url)
/// links.orderedDuplicates(preferring: "de").map(\.url)
/// links.metalinks   // [https://origin.example.com/pub/f.iso.meta4]
/// ```
public struct MirrorLinks: Sendable, Hashable {
  /// The mirrors, in field order; only `http` and `https` ones.
  public var duplicates: [DuplicateLink]
  /// The URLs of Metalink 4 descriptions of the file, in field order; only `http` and
  /// `https` ones.
  public var metalinks: [URL]

  /// Creates the value from its parts.
  public init(duplicates: [DuplicateLink] = [], metalinks: [URL] = []) {
    self.duplicates = duplicates
    self.metalinks = metalinks
  }

  /// Reads every `Link` field value of a response: each may hold several comma-separated
  /// links; relative references are resolved against `responseURL` (the URL that answered,
  /// after redirects). A link that breaks the grammar, or whose URL is not `http` or `https`,
  /// is skipped.
  public init(fieldValues: [String], responseURL: URL) {
    self.init()
    for value in fieldValues {
      for link in LinkFieldParser.links(in: value) {
        let relations = Set(
          (link.parameter("rel").flatMap { $0 } ?? "").lowercased()
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init))
        guard relations.contains("duplicate") || relations.contains("describedby"),
          let url = MirrorLinks.resolve(link.target, against: responseURL)
        else { continue }
        if relations.contains("duplicate") {
          duplicates.append(MirrorLinks.duplicate(link, url))
        }
        if relations.contains("describedby"),
          let type = link.parameter("type").flatMap({ $0 }),
          type.trimmingCharacters(in: .whitespaces).lowercased() == "application/metalink4+xml"
        {
          metalinks.append(url)
        }
      }
    }
  }

  /// The mirrors, best first: those marked `pref`, then by `pri` (1 first, none last), then
  /// those in `location` (ISO 3166-1 alpha-2, any case), then field order.
  public func orderedDuplicates(preferring location: String? = nil) -> [DuplicateLink] {
    let preferred = location?.lowercased()
    return duplicates.enumerated().sorted { first, second in
      let (a, b) = (first.element, second.element)
      if a.isPreferred != b.isPreferred { return a.isPreferred }
      let (aRank, bRank) = (a.priority ?? Int.max, b.priority ?? Int.max)
      if aRank != bRank { return aRank < bRank }
      let aHere = preferred != nil && a.location == preferred
      let bHere = preferred != nil && b.location == preferred
      if aHere != bHere { return aHere }
      return first.offset < second.offset
    }
    .map(\.element)
  }

  private static func duplicate(_ link: LinkFieldParser.Link, _ url: URL) -> DuplicateLink {
    let depth = link.parameter("depth").flatMap { $0 }.flatMap { text -> Int? in
      guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
      else { return nil }
      return Int(text)
    }
    return DuplicateLink(
      url: url, priority: MetalinkParser.priority(link.parameter("pri").flatMap { $0 }),
      location: MetalinkParser.location(link.parameter("geo").flatMap { $0 }),
      isPreferred: link.parameter("pref") != nil, depth: depth)
  }

  /// `reference` resolved against `base`, when the result is an `http` or `https` URL with a
  /// host.
  private static func resolve(_ reference: String, against base: URL) -> URL? {
    let trimmed = reference.trimmingCharacters(in: .whitespaces)
    guard let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
      case .success(let usable) = MetalinkURL.judge(url.absoluteString)
    else { return nil }
    return usable
  }
}
