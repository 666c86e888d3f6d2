import Foundation
import HLSPlaylist
import OfflineHTTP

/// What an HLS stream offers, for `offline info`: variants, renditions, duration and
/// encryption, read from its playlists (the master and each variant's media playlist).
///
/// A variant whose media playlist cannot be read does not hide the others: its error is in
/// ``variantErrors`` and the rest comes from the variants that could be read.
public struct HLSInfo: Sendable {
  /// The variants, lowest bandwidth first.
  public var variants: [Variant]
  /// Why the media playlist of a variant could not be read, by its index in ``variants``;
  /// absent for variants that were read.
  public var variantErrors: [Int: String]
  /// The audio renditions.
  public var audio: [Rendition]
  /// The subtitle renditions.
  public var subtitles: [Rendition]
  /// The duration in seconds, from the highest variant whose media playlist was read.
  public var duration: Double
  /// Segments in that playlist.
  public var segments: Int
  /// Every encryption method and key format in effect in the media playlists read (and the
  /// master's session keys), e.g. `AES-128` and `SAMPLE-AES (com.apple.streamingkeydelivery)`;
  /// empty when clear.
  public var encryption: [String]
  /// Whether the stream is live (it cannot be downloaded then).
  public var isLive: Bool

  /// Fetches and reads the stream at `url`.
  ///
  /// - Throws: ``Transfer/Error`` when the playlist at `url` cannot be fetched or read; a
  ///   variant that fails is reported in ``variantErrors`` instead.
  public static func fetch(
    _ url: URL, transport: any HTTPTransporting, requestOptions: RequestOptions = RequestOptions()
  ) async throws(Transfer.Error) -> HLSInfo {
    let download = HLSDownload(
      url: url, folder: URL(fileURLWithPath: "/nonexistent"), journal: nil, transport: transport,
      requestOptions: requestOptions)
    try download.checkRequestOptions()
    let parsed = try await download.fetchPlaylist(at: url, importing: nil)
    let entry = parsed.playlist
    var info = HLSInfo(
      variants: [], variantErrors: [:], audio: [], subtitles: [], duration: 0, segments: 0,
      encryption: [], isLive: false)
    var keys: [Key] = []
    switch entry {
    case .media(let playlist):
      info.describe(playlist)
      keys = playlist.segments.flatMap(\.keys)
    case .master(let master):
      info.variants = master.variants.sorted { $0.bandwidth < $1.bandwidth }
      info.audio = master.renditions.filter { $0.type == .audio }
      info.subtitles = master.renditions.filter { $0.type == .subtitles }
      keys = master.sessionKeys
      var described = false
      for index in info.variants.indices.reversed() {
        do throws(Transfer.Error) {
          let variantURL = try HLSURI.resolve(
            info.variants[index].uri, against: url, what: "variant")
          let variant = try await download.fetchPlaylist(
            at: variantURL, importing: parsed.variables)
          guard case .media(let playlist) = variant.playlist else {
            throw download.failure(
              "\(variantURL.redactedForDisplay) is a master playlist where a media playlist belongs"
            )
          }
          if !described { info.describe(playlist) }
          described = true
          keys += playlist.segments.flatMap(\.keys)
        } catch {
          info.variantErrors[index] = error.description
        }
      }
    }
    for key in keys where key.method != .none {
      let name = Self.name(of: key.method) + (key.isIdentityFormat ? "" : " (\(key.keyFormat))")
      if !info.encryption.contains(name) { info.encryption.append(name) }
    }
    return info
  }

  private mutating func describe(_ media: MediaPlaylist) {
    duration = media.totalDuration
    segments = media.segments.count
    isLive = !media.hasEndList && media.playlistType != .vod
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
