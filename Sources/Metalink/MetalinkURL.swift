import Foundation

/// One place a Metalink says the file can be fetched from (`url`, RFC 5854 §4.2.16).
///
/// Every URL of the document is kept; only an absolute `http` or `https` URL with a host is
/// usable. Any other (`ftp:`, `rsync:`, a relative reference, text that is not a URL) is
/// listed with ``unusableReason`` and never followed.
public struct MetalinkURL: Sendable, Hashable {
  /// The URL as written, whitespace trimmed.
  public var text: String
  /// The parsed URL, when it is usable.
  public var url: URL?
  /// Its priority, 1 the highest (RFC 5854 §4.2.16.2); nil when absent or not a whole number
  /// from 1 to 999999, which ranks it below every URL that has one.
  public var priority: Int?
  /// The country the server is in (`location`), an ISO 3166-1 alpha-2 code in lowercase;
  /// nil when absent or not two ASCII letters.
  public var location: String?
  /// Why the URL is not used, as a sentence; nil when it is usable.
  public var unusableReason: String?

  /// Creates a URL entry from the text a document gives, judging whether it is usable.
  public init(text: String, priority: Int? = nil, location: String? = nil) {
    self.text = text
    self.priority = priority
    self.location = location
    switch MetalinkURL.judge(text) {
    case .success(let url): self.url = url
    case .failure(let reason): self.unusableReason = reason.message
    }
  }

  /// Whether the URL is followed: an absolute `http` or `https` URL with a host.
  public var isUsable: Bool { url != nil }

  /// The priority used for ordering: absent ranks after every present one.
  var rank: Int { priority ?? Int.max }

  /// Why a URL is not usable.
  struct Unusable: Error {
    /// The reason as a sentence.
    let message: String
  }

  /// The URL `text` names when it is one we follow, or why not. Reasons name the scheme,
  /// never the URL, which can carry a token.
  static func judge(_ text: String) -> Result<URL, Unusable> {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
      return .failure(Unusable(message: "It is not an absolute URL."))
    }
    guard scheme == "http" || scheme == "https" else {
      let shown = scheme.count <= 20 ? "'\(scheme)'" : "this scheme"
      return .failure(
        Unusable(message: "Its scheme \(shown) is not followed; only http and https are."))
    }
    guard let host = url.host, !host.isEmpty else {
      return .failure(Unusable(message: "It has no host."))
    }
    return .success(url)
  }
}

/// A description of the file in another form (`metaurl`, RFC 5854 §4.2.8): a `.torrent`, a
/// magnet link. Kept so a caller can show it; OfflineKit fetches none.
public struct MetalinkMetaURL: Sendable, Hashable {
  /// The URL as written, whitespace trimmed.
  public var text: String
  /// What it describes the file as (`mediatype`), such as `torrent`.
  public var mediaType: String
  /// Its priority, 1 the highest; nil when absent or malformed.
  public var priority: Int?
  /// The file's name inside what it describes (`name`), for a torrent of many files.
  public var name: String?

  /// Creates a metaURL entry.
  public init(text: String, mediaType: String, priority: Int? = nil, name: String? = nil) {
    self.text = text
    self.mediaType = mediaType
    self.priority = priority
    self.name = name
  }

  /// Always false: OfflineKit fetches over http and https only, never through a metaURL.
  public var isUsable: Bool { false }
}
