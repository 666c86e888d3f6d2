import Foundation
import HLSPlaylist
import OfflineHTTP

/// What an HLS stream offers, for `offline info`: variants, renditions, duration and
/// encryption, read from its playlists (the master and one media playlist).
public struct HLSInfo: Sendable {
  /// The variants, lowest bandwidth first.
  public var variants: [Variant]
  /// The audio renditions.
  public var audio: [Rendition]
  /// The subtitle renditions.
  public var subtitles: [Rendition]
  /// The duration in seconds, from the highest variant's media playlist.
  public var duration: Double
  /// Segments in that playlist.
  public var segments: Int
  /// The encryption methods and key formats used, e.g. `AES-128` or
  /// `SAMPLE-AES (com.apple.streamingkeydelivery)`; empty when clear.
  public var encryption: [String]
  /// Whether the stream is live (it cannot be downloaded then).
  public var isLive: Bool

  /// Fetches and reads the stream at `url`.
  public static func fetch(_ url: URL, transport: any HTTPTransporting) async throws(Transfer.Error)
    -> HLSInfo
  {
    let download = HLSDownload(
      url: url, folder: URL(fileURLWithPath: "/nonexistent"), journal: nil, transport: transport)
    let entry = try await download.fetchPlaylist(at: url)
    var info = HLSInfo(
      variants: [], audio: [], subtitles: [], duration: 0, segments: 0, encryption: [],
      isLive: false)
    var media: MediaPlaylist
    switch entry {
    case .media(let playlist):
      media = playlist
    case .master(let master):
      info.variants = master.variants.sorted { $0.bandwidth < $1.bandwidth }
      info.audio = master.renditions.filter { $0.type == .audio }
      info.subtitles = master.renditions.filter { $0.type == .subtitles }
      guard let highest = info.variants.last else { return info }
      let variantURL = try HLSURI.resolve(highest.uri, against: url, what: "variant")
      guard case .media(let playlist) = try await download.fetchPlaylist(at: variantURL) else {
        return info
      }
      media = playlist
    }
    info.duration = media.totalDuration
    info.segments = media.segments.count
    info.isLive = !media.hasEndList && media.playlistType != .vod
    var methods: [String] = []
    for key in media.segments.compactMap(\.key) {
      let name = Self.name(of: key.method) + (key.isIdentityFormat ? "" : " (\(key.keyFormat))")
      if !methods.contains(name) { methods.append(name) }
    }
    info.encryption = methods
    return info
  }

  static func name(of method: Key.Method) -> String {
    switch method {
    case .none: "NONE"
    case .aes128: "AES-128"
    case .sampleAES: "SAMPLE-AES"
    case .sampleAESCTR: "SAMPLE-AES-CTR"
    case .other(let text): text
    }
  }
}

extension HLSInfo {
  /// A listing for people.
  public var text: String {
    var lines: [String] = []
    if isLive { lines.append("LIVE: a live stream cannot be downloaded for offline use.") }
    lines.append(String(format: "Duration: %.1f s in %d segments", duration, segments))
    lines.append(
      "Encryption: " + (encryption.isEmpty ? "none" : encryption.joined(separator: ", ")))
    if !variants.isEmpty { lines.append("Variants (--variant):") }
    for variant in variants {
      var parts = ["  \(variant.bandwidth) bit/s"]
      if let resolution = variant.resolution {
        parts.append("\(resolution.width)x\(resolution.height)")
      }
      if let codecs = variant.codecs { parts.append(codecs) }
      lines.append(parts.joined(separator: "  "))
    }
    for (title, renditions) in [
      ("Audio (--audio):", audio), ("Subtitles (--subtitles):", subtitles),
    ]
    where !renditions.isEmpty {
      lines.append(title)
      for rendition in renditions {
        let language = rendition.language ?? "und"
        let marks =
          (rendition.isDefault ? " default" : "") + (rendition.uri == nil ? " (muxed)" : "")
        lines.append("  \(language)  \"\(rendition.name)\"  group \(rendition.groupID)\(marks)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// One JSON object for programs.
  public var json: String {
    let object: [String: Any] = [
      "duration": duration, "segments": segments, "encryption": encryption, "live": isLive,
      "variants": variants.map { variant -> [String: Any] in
        var fields: [String: Any] = ["bandwidth": variant.bandwidth, "uri": variant.uri]
        if let resolution = variant.resolution {
          fields["resolution"] = "\(resolution.width)x\(resolution.height)"
        }
        fields["codecs"] = variant.codecs
        return fields
      },
      "audio": audio.map(Self.fields), "subtitles": subtitles.map(Self.fields),
    ]
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
      let text = String(data: data, encoding: .utf8)
    else { return "{}" }
    return text
  }

  private static func fields(_ rendition: Rendition) -> [String: Any] {
    var fields: [String: Any] = [
      "name": rendition.name, "group": rendition.groupID, "default": rendition.isDefault,
    ]
    fields["language"] = rendition.language
    return fields
  }
}
