import Foundation

extension ContentDamage {
  /// A media segment of a stream whose bytes are wrong, named as a player meets it: its
  /// position in its offline media playlist and the URL it was downloaded from (a segment
  /// in a pack has no file of its own to name).
  public struct Segment: Sendable, Equatable, CustomStringConvertible, Encodable {
    /// The offline media playlist that lists it, inside the content's folder
    /// (`playlist.m3u8`, `video/playlist.m3u8`).
    public var playlist: String
    /// Its position in that playlist: 1 for the first segment.
    public var position: Int
    /// The URL it was downloaded from.
    public var url: String
    /// Where its bytes start in the pack.
    public var offset: Int64

    /// Creates a segment's name.
    public init(playlist: String, position: Int, url: String, offset: Int64) {
      self.playlist = playlist
      self.position = position
      self.url = url
      self.offset = offset
    }

    /// "segment 3 of video/playlist.m3u8 (https://cdn.example/seg2.ts)", the URL without
    /// its query (it may hold a token).
    public var description: String {
      "segment \(position) of \(playlist)"
        + (URL(string: url).map { " (\($0.redactedForDisplay))" } ?? "")
    }

    /// Encodes `playlist`, `position`, `url` without its query (it may hold a token) and
    /// `offset`: the one JSON shape of a damaged segment, for `verify --json` and the service.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(playlist, forKey: .playlist)
      try container.encode(position, forKey: .position)
      try container.encode(URL(string: url)?.redactedForDisplay ?? "", forKey: .url)
      try container.encode(offset, forKey: .offset)
    }

    private enum CodingKeys: String, CodingKey {
      case playlist, position, url, offset
    }

    /// "has a wrong hash in segment 3 of playlist.m3u8 (…)" or "in 2 segments: segment 1
    /// of …, segment 3 of …": the first eight, then "..." when there are more.
    static func wrongHash(in segments: [Segment]) -> String {
      "has a wrong hash in " + (segments.count == 1 ? "" : "\(segments.count) segments: ")
        + segments.prefix(8).map(\.description).joined(separator: ", ")
        + (segments.count > 8 ? ", ..." : "")
    }
  }
}
