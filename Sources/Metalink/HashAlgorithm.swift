/// A hash function a source names for a whole file or for its pieces.
///
/// Names follow the IANA "Hash Function Textual Names" registry that RFC 5854 §4.2.4 uses
/// (`sha-256`); Metalink 3's spellings (`sha256`, `sha1`) and RFC 3230's (`SHA`, `MD5`) are
/// read as the same functions. The cases compare by strength, weakest first, so `max()` of a
/// list is the one to check (RFC 5854 §4.2.4 recommends the strongest a client supports).
public enum HashAlgorithm: String, Sendable, Hashable, CaseIterable, Comparable {
  /// MD5: 16 bytes. Broken for collisions; a check against accidents only.
  case md5 = "md5"
  /// SHA-1: 20 bytes. Broken for collisions; a check against accidents only.
  case sha1 = "sha-1"
  /// SHA-256: 32 bytes. What OfflineKit's transfer checks today.
  case sha256 = "sha-256"
  /// SHA-384: 48 bytes.
  case sha384 = "sha-384"
  /// SHA-512: 64 bytes.
  case sha512 = "sha-512"

  /// The function's IANA textual name, such as `sha-256`.
  public var name: String { rawValue }

  /// How many bytes a digest of this function has.
  public var digestLength: Int {
    switch self {
    case .md5: 16
    case .sha1: 20
    case .sha256: 32
    case .sha384: 48
    case .sha512: 64
    }
  }

  /// The function a source names `name` (`sha-256`, `SHA256`, `sha`, `MD5`), in any case;
  /// nil for a name this module does not know (`tiger`, `ed2k`, `unixsum`).
  public init?(name: String) {
    switch name.lowercased() {
    case "md5": self = .md5
    case "sha-1", "sha1", "sha": self = .sha1
    case "sha-256", "sha256": self = .sha256
    case "sha-384", "sha384": self = .sha384
    case "sha-512", "sha512": self = .sha512
    default: return nil
    }
  }

  /// Whether `lhs` is weaker than `rhs`.
  public static func < (lhs: HashAlgorithm, rhs: HashAlgorithm) -> Bool {
    lhs.strength < rhs.strength
  }

  private var strength: Int { HashAlgorithm.allCases.firstIndex(of: self) ?? 0 }
}
