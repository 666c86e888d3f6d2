/// A `ContentProtection` descriptor (ISO/IEC 23009-1 §5.8.4.1, ISO/IEC 23001-7 §11): the
/// protection scheme or a key system that can play the content.
public struct ContentProtection: Sendable, Equatable {
  /// `@schemeIdUri`: `urn:mpeg:dash:mp4protection:2011`, or `urn:uuid:` and a system ID.
  public var schemeIdUri: String
  /// `@value`, such as `cenc` or `cbcs` for the mp4protection scheme.
  public var value: String?
  /// `@cenc:default_KID`: the key ID, as written.
  public var defaultKID: String?
  /// The text of the `cenc:pssh` child (base64), whitespace trimmed.
  public var pssh: String?

  /// Creates a content protection descriptor.
  public init(
    schemeIdUri: String, value: String? = nil, defaultKID: String? = nil, pssh: String? = nil
  ) {
    self.schemeIdUri = schemeIdUri
    self.value = value
    self.defaultKID = defaultKID
    self.pssh = pssh
  }

  /// The name of the key system the scheme stands for (`Widevine`, `PlayReady`, `FairPlay`,
  /// `ClearKey`, `PrimeTime`, `Marlin`), or nil for a scheme this module does not know,
  /// including the generic `urn:mpeg:dash:mp4protection:2011`.
  ///
  /// System IDs from the DASH-IF registry (https://dashif.org/identifiers/content_protection/).
  public var keySystemName: String? {
    let scheme = schemeIdUri.lowercased()
    guard scheme.hasPrefix("urn:uuid:") else { return nil }
    switch scheme.dropFirst("urn:uuid:".count) {
    case "edef8ba9-79d6-4ace-a3c8-27dcd51d21ed": return "Widevine"
    case "9a04f079-9840-4286-ab92-e65be0885f95", "79f0049a-4098-8642-ab92-e65be0885f95":
      return "PlayReady"
    case "94ce86fb-07ff-4f43-adb8-93d2fa968ca2": return "FairPlay"
    case "e2719d58-a985-b3c9-781a-b030af78d30e", "1077efec-c0b2-4d02-ace3-3c1e52e2fb4b":
      return "ClearKey"
    case "f239e769-efa3-4850-9c16-a903c6932efb": return "PrimeTime"
    case "5e629af5-38da-4063-8977-97ffbd9902d4": return "Marlin"
    default: return nil
    }
  }
}
