import Foundation
import HLSPlaylist
import OfflineHTTP

/// What an HLS stream offers, for `offline info`: variants, renditions, duration and
/// encryption, read from its playlists (the master and each variant's media playlist).
///
/// A variant whose media playlist cannot be read does not hide the others: its error is in
/// ``variantErrors`` and the rest comes from the variants that could be read.
package struct HLSInfo: Sendable {
  /// The variants, lowest bandwidth first, each rendition once: a backup (the same
  /// `BANDWIDTH`, `RESOLUTION` and `CODECS` at another URI or on another content steering
  /// pathway) is one of its ``variantSources``, not a variant of its own.
  public var variants: [Variant]
  /// The URIs each of ``variants`` is served from, by its index, as the master writes
  /// them: its own first, then its backups' in the order a download tries them.
  public var variantSources: [[String]] = []
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

  /// How many variants' media playlists are read at once.
  static let parallelReads = 8

  /// Fetches and reads the stream at `url`: a master's variants are read in parallel
  /// (`parallelReads` at once). A host that cannot be resolved or connected to (directly
  /// or through the proxy) is answered at once, not tried again; a 503 or a cut connection
  /// is tried again as in a download.
  ///
  /// - Throws: ``Transfer/Error`` when the playlist at `url` cannot be fetched or read; a
  ///   variant that fails is reported in ``variantErrors`` instead.
  public static func fetch(
    _ url: URL, transport: any HTTPTransporting, requestOptions: RequestOptions = RequestOptions()
  ) async throws(Transfer.Error) -> HLSInfo {
    // A person waits for the answer: a host that cannot be reached is not tried again.
    let session = ContentSession(
      url: url, transport: transport, requestOptions: requestOptions, retriesUnreachable: false)
    try session.checkOptions(destination: "")
    let fetch = HLSPlaylistFetch(session: session, destination: "")
    let parsed = try await fetch.playlist(at: url)
    var info = HLSInfo(
      variants: [], variantErrors: [:], audio: [], subtitles: [], duration: 0, segments: 0,
      encryption: [], isLive: false)
    var keys: [Key] = []
    switch parsed.playlist {
    case .media(let playlist):
      info.describe(playlist)
      keys = playlist.segments.flatMap(\.keys)
    case .master(let master):
      let distinct = Self.distinctVariants(of: master).sorted {
        $0.variant.bandwidth < $1.variant.bandwidth
      }
      info.variants = distinct.map(\.variant)
      info.variantSources = distinct.map(\.sources)
      info.audio = master.renditions.filter { $0.type == .audio }
      info.subtitles = master.renditions.filter { $0.type == .subtitles }
      keys = master.sessionKeys
      let read = await variantPlaylists(info.variants, of: url, parsed, fetch: fetch)
      var described = false
      for index in info.variants.indices.reversed() {
        switch read[index] {
        case .success(let playlist)?:
          if !described { info.describe(playlist) }
          described = true
          keys += playlist.segments.flatMap(\.keys)
        case .failure(let error)?:
          info.variantErrors[index] = error.description
        case nil:
          break
        }
      }
    }
    for key in keys where key.method != .none {
      let name = Self.name(of: key.method) + (key.isIdentityFormat ? "" : " (\(key.keyFormat))")
      if !info.encryption.contains(name) { info.encryption.append(name) }
    }
    return info
  }

  /// The variants of `master` that are distinct renditions, each with the URIs it is
  /// served from: variants in the order a download tries their pathways
  /// (``MasterPlaylist/pathwayOrder``), a variant that ``MasterPlaylist/isRedundant(_:with:)``
  /// one before it joining that one's sources.
  static func distinctVariants(of master: MasterPlaylist) -> [(variant: Variant, sources: [String])]
  {
    let order = master.pathwayOrder
    let rank = { (variant: Variant) -> Int in
      order.firstIndex(of: variant.pathwayID ?? ContentSteering.defaultPathwayID) ?? order.count
    }
    let ranked = master.variants.enumerated()
      .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    var result: [(variant: Variant, sources: [String])] = []
    for variant in ranked {
      if let at = result.firstIndex(where: { MasterPlaylist.isRedundant($0.variant, with: variant) }
      ) {
        if !result[at].sources.contains(variant.uri) { result[at].sources.append(variant.uri) }
      } else {
        result.append((variant, [variant.uri]))
      }
    }
    return result
  }

  /// The media playlist of each of `variants` of the master at `url`, by index, read
  /// `parallelReads` at once.
  private static func variantPlaylists(
    _ variants: [Variant], of url: URL, _ master: ParsedPlaylist, fetch: HLSPlaylistFetch
  ) async -> [Int: Result<MediaPlaylist, Transfer.Error>] {
    let variables = master.variables
    return await withTaskGroup(of: (Int, Result<MediaPlaylist, Transfer.Error>).self) { group in
      var next = variants.startIndex
      func addNext() {
        guard next < variants.endIndex else { return }
        let index = next
        let uri = variants[index].uri
        next += 1
        group.addTask {
          do throws(Transfer.Error) {
            let variantURL = try HLSURI.resolve(uri, against: url, what: "variant")
            let variant = try await fetch.playlist(at: variantURL, importing: variables)
            guard case .media(let playlist) = variant.playlist else {
              throw fetch.failure(
                "\(variantURL.redactedForDisplay) is a master playlist where a media playlist"
                  + " belongs")
            }
            return (index, .success(playlist))
          } catch {
            return (index, .failure(error))
          }
        }
      }
      for _ in 0..<parallelReads { addNext() }
      var read: [Int: Result<MediaPlaylist, Transfer.Error>] = [:]
      for await (index, result) in group {
        read[index] = result
        addNext()
      }
      return read
    }
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
