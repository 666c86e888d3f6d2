/// The Media Initialization Section named by `EXT-X-MAP` (RFC 8216 §4.3.2.5), such as the
/// `init.mp4` of an fMP4 stream.
public struct MapSection: Sendable, Equatable, Hashable {
  /// The URI of the resource, as written in the playlist (relative or absolute).
  public var uri: String
  /// The part of the resource that holds the section, or nil for the whole resource.
  ///
  /// A `BYTERANGE` without an offset starts at byte 0.
  public var byteRange: ByteRange?

  /// Creates a map section for `uri`, optionally limited to `byteRange`.
  public init(uri: String, byteRange: ByteRange? = nil) {
    self.uri = uri
    self.byteRange = byteRange
  }
}
