import HexDigits
import XMLTree

/// A digest a source says a file (or a piece of it) has: the function and its bytes.
///
/// Made from the hexadecimal text of a Metalink or the base64 of an HTTP field; either way the
/// bytes have exactly the function's ``HashAlgorithm/digestLength``.
public struct Checksum: Sendable, Hashable, CustomStringConvertible {
  /// The hash function.
  public let algorithm: HashAlgorithm
  /// The digest, ``HashAlgorithm/digestLength`` bytes.
  public let bytes: [UInt8]

  /// A digest of `algorithm` from its bytes; nil when their count is not the function's.
  public init?(_ algorithm: HashAlgorithm, bytes: [UInt8]) {
    guard bytes.count == algorithm.digestLength else { return nil }
    self.algorithm = algorithm
    self.bytes = bytes
  }

  /// A digest of `algorithm` from hexadecimal digits in any case, blanks around them allowed;
  /// nil when they are not exactly twice the function's digest length.
  public init?(_ algorithm: HashAlgorithm, hex: String) {
    let digits = hex.trimmingASCIIWhitespace()
    guard ASCIIHex.isDigits(digits, count: algorithm.digestLength * 2),
      let bytes = ASCIIHex.bytes(digits.utf8)
    else { return nil }
    self.init(algorithm, bytes: bytes)
  }

  /// The digest as lowercase hexadecimal digits.
  public var hex: String { ASCIIHex.digits(bytes) }

  /// `sha-256:` and the hexadecimal digest.
  public var description: String { "\(algorithm.name):\(hex)" }

  /// The strongest of `checksums` whose function is in `checkable`, or nil when none is.
  ///
  /// Pass the functions the caller can compute: OfflineKit's transfer checks SHA-256 today,
  /// so it asks with `[.sha256]`; the default allows all of them.
  public static func strongest(
    in checksums: [Checksum], checkable: Set<HashAlgorithm> = Set(HashAlgorithm.allCases)
  ) -> Checksum? {
    checksums.filter { checkable.contains($0.algorithm) }.max { $0.algorithm < $1.algorithm }
  }
}
