/// The Media Initialization Section named by `EXT-X-MAP` (RFC 8216 §4.3.2.5), such as the
/// `init.mp4` of an fMP4 stream.
///
/// An `EXT-X-KEY` applies to the `EXT-X-MAP` tags after it as to the segments (§4.3.2.4), so
/// a section declared before a stream's first key is in the clear while its segments are
/// encrypted: ``keys`` keeps which, and ``PlaylistWriter`` writes the section where those
/// keys, and only those, are in effect.
public struct MapSection: Sendable, Equatable, Hashable {
  /// The URI of the resource, as written in the playlist (relative or absolute).
  public var uri: String
  /// The part of the resource that holds the section, or nil for the whole resource.
  ///
  /// A `BYTERANGE` without an offset starts at byte 0.
  public var byteRange: ByteRange?
  /// The keys in effect where the section is declared, which encrypt it; empty when it is in
  /// the clear (no key yet, or after `METHOD=NONE`).
  public var keys: [Key]

  /// Creates a map section for `uri`, optionally limited to `byteRange`, encrypted with
  /// `keys` (none: in the clear).
  public init(uri: String, byteRange: ByteRange? = nil, keys: [Key] = []) {
    self.uri = uri
    self.byteRange = byteRange
    self.keys = keys
  }
}
