/// One file a Metalink describes: the name to save it under, what it should be (size,
/// hashes, piece hashes) and where to get it (URLs, and metaURLs we do not use).
///
/// A file that ``MetalinkParser`` returns has passed every rule: its ``name`` is a safe
/// relative path, it has at least one usable URL, its hashes are well formed and its piece
/// hashes cover its size.
public struct MetalinkFile: Sendable, Equatable {
  /// The name to save the file under: a relative path of one or more segments
  /// (`iso/disk1.iso`) that cannot leave the output folder (RFC 5854 §4.1.2.1).
  public var name: String
  /// The length in bytes, when the document gives it.
  public var size: UInt64?
  /// Digests of the whole file, of the functions this module knows, in document order.
  public var hashes: [Checksum]
  /// Piece hashes, one list per hash function the document gives, in document order.
  public var pieces: [PieceHashes]
  /// Every URL the document lists, usable or not, in document order.
  public var urls: [MetalinkURL]
  /// Descriptions in other forms (a `.torrent`, a magnet link), kept but never used.
  public var metaURLs: [MetalinkMetaURL]
  /// What the file is (`identity`), such as `Debian`.
  public var identity: String?
  /// Its version (`version`), such as `12.4.0`.
  public var version: String?
  /// A description for people (`description`).
  public var description: String?
  /// Its copyright (`copyright`).
  public var copyright: String?
  /// The languages of its content (`language`), as written (RFC 5646 tags).
  public var languages: [String]
  /// The operating systems it is for (`os`), as written.
  public var operatingSystems: [String]
  /// A signature of the file (`signature`), kept as it is: this module checks none.
  public var signature: MetalinkSignature?

  /// Creates a file description; the parser's rules are not applied to it.
  public init(
    name: String, size: UInt64? = nil, hashes: [Checksum] = [], pieces: [PieceHashes] = [],
    urls: [MetalinkURL] = [], metaURLs: [MetalinkMetaURL] = [], identity: String? = nil,
    version: String? = nil, description: String? = nil, copyright: String? = nil,
    languages: [String] = [], operatingSystems: [String] = [],
    signature: MetalinkSignature? = nil
  ) {
    self.name = name
    self.size = size
    self.hashes = hashes
    self.pieces = pieces
    self.urls = urls
    self.metaURLs = metaURLs
    self.identity = identity
    self.version = version
    self.description = description
    self.copyright = copyright
    self.languages = languages
    self.operatingSystems = operatingSystems
    self.signature = signature
  }
}

/// A signature of a file, kept opaque (RFC 5854 §4.2.13).
public struct MetalinkSignature: Sendable, Hashable {
  /// Its media type, such as `application/pgp-signature`.
  public var mediaType: String?
  /// The signature text as written.
  public var text: String

  /// Creates a signature.
  public init(mediaType: String?, text: String) {
    self.mediaType = mediaType
    self.text = text
  }
}
