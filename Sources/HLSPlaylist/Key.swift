/// How media segments are encrypted: one `EXT-X-KEY` (RFC 8216 §4.3.2.4), or one
/// `EXT-X-SESSION-KEY` in a master playlist (§4.3.4.5).
///
/// ```swift
/// if let key = segment.key, key.method == .aes128, key.isIdentityFormat {
///   let iv = key.initializationVector(forMediaSequence: segment.mediaSequenceNumber)
/// }
/// ```
public struct Key: Sendable, Equatable, Hashable {
  /// The encryption method, the `METHOD` attribute.
  public enum Method: Sendable, Equatable, Hashable {
    /// `NONE`: segments are not encrypted.
    case none
    /// `AES-128`: whole segments are encrypted with AES-128 in CBC mode, PKCS7 padding.
    case aes128
    /// `SAMPLE-AES`: media samples are encrypted (for example FairPlay Streaming).
    case sampleAES
    /// `SAMPLE-AES-CTR`: media samples are encrypted with AES-CTR (common encryption).
    case sampleAESCTR
    /// Any other method, with its raw value as written.
    case other(String)

    /// Creates the method for a raw `METHOD` value such as `AES-128`.
    public init(rawValue: String) {
      switch rawValue {
      case "NONE": self = .none
      case "AES-128": self = .aes128
      case "SAMPLE-AES": self = .sampleAES
      case "SAMPLE-AES-CTR": self = .sampleAESCTR
      default: self = .other(rawValue)
      }
    }

    /// The raw `METHOD` value, such as `AES-128`.
    public var rawValue: String {
      switch self {
      case .none: "NONE"
      case .aes128: "AES-128"
      case .sampleAES: "SAMPLE-AES"
      case .sampleAESCTR: "SAMPLE-AES-CTR"
      case .other(let value): value
      }
    }
  }

  /// The `KEYFORMAT` that means the key file holds the 16 raw key bytes.
  public static let identityFormat = "identity"

  /// The encryption method.
  public var method: Method
  /// The URI of the key as written (relative, absolute, or a scheme such as `skd://`).
  public var uri: String?
  /// The initialization vector, exactly 16 bytes, when the tag gives one.
  public var iv: [UInt8]?
  /// How the key is represented; `identity` (the default) means 16 raw bytes.
  public var keyFormat: String
  /// The `KEYFORMATVERSIONS` attribute as written, such as `1/2/5`.
  public var keyFormatVersions: String?
  /// Attributes the parser does not model, written back unchanged.
  public var otherAttributes: [Attribute]

  /// Creates a key description.
  public init(
    method: Method, uri: String? = nil, iv: [UInt8]? = nil,
    keyFormat: String = Key.identityFormat, keyFormatVersions: String? = nil,
    otherAttributes: [Attribute] = []
  ) {
    self.method = method
    self.uri = uri
    self.iv = iv
    self.keyFormat = keyFormat
    self.keyFormatVersions = keyFormatVersions
    self.otherAttributes = otherAttributes
  }

  /// Whether the key file holds the raw key bytes (`KEYFORMAT` is `identity`).
  public var isIdentityFormat: Bool { keyFormat == Key.identityFormat }

  /// The initialization vector for the segment with media sequence number `sequence`.
  ///
  /// This is `iv` when the tag gives one; otherwise, per RFC 8216 §5.2, the sequence number
  /// as a 16-byte big-endian integer (a negative number is sign-extended).
  public func initializationVector(forMediaSequence sequence: Int) -> [UInt8] {
    if let iv { return iv }
    let value = Int64(sequence)
    let fill: UInt8 = value < 0 ? 0xFF : 0
    var bytes = [UInt8](repeating: fill, count: 16)
    let bits = UInt64(bitPattern: value)
    for index in 0..<8 {
      bytes[15 - index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))
    }
    return bytes
  }
}
