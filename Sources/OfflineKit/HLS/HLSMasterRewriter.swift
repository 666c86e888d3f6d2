import Foundation
import HLSPlaylist

/// Rewrites a master playlist for offline playback: the chosen variant and renditions point
/// at their local media playlists; the rest is dropped, or kept with absolute remote URLs
/// (`playbackURL(restrictedToAssetCache: false)`).
struct HLSMasterRewriter {
  let entryURL: URL
  let master: MasterPlaylist
  let selection: HLSSelection

  func offline(sources: [HLSPlanner.Source], keepingRemote: Bool) throws(Transfer.Error)
    -> MasterPlaylist
  {
    var result = master
    result.sessionKeys = []
    // The copy plays one source: no steering server, whichever pathway served it.
    result.contentSteering = nil
    let video = sources.first { $0.folder == "video" }?.folder ?? "video"
    result.variants = []
    for variant in master.variants {
      if variant == selection.variant {
        var local = variant
        local.uri = "\(video)/playlist.m3u8"
        result.variants.append(local)
      } else if keepingRemote {
        var remote = variant
        remote.uri = try HLSURI.resolve(variant.uri, against: entryURL, what: "variant")
          .absoluteString
        result.variants.append(remote)
      }
    }
    result.iFrameVariants =
      keepingRemote
      ? try master.iFrameVariants.map { (variant) throws(Transfer.Error) -> IFrameVariant in
        var remote = variant
        remote.uri = try HLSURI.resolve(variant.uri, against: entryURL, what: "I-frame variant")
          .absoluteString
        return remote
      } : []
    let chosen = selection.audio + selection.subtitles
    result.renditions = []
    for rendition in master.renditions {
      if let index = chosen.firstIndex(of: rendition),
        let folder = Self.folder(for: chosen[index], among: chosen)
      {
        var local = rendition
        local.uri = rendition.uri == nil ? nil : "\(folder)/playlist.m3u8"
        result.renditions.append(local)
      } else if rendition.uri == nil, isInSelectedGroup(rendition) {
        result.renditions.append(rendition)  // muxed into the variant: nothing to fetch
      } else if keepingRemote {
        var remote = rendition
        if let uri = rendition.uri {
          remote.uri = try HLSURI.resolve(uri, against: entryURL, what: "rendition").absoluteString
        }
        result.renditions.append(remote)
      }
    }
    return result
  }

  private func isInSelectedGroup(_ rendition: Rendition) -> Bool {
    switch rendition.type {
    case .audio: rendition.groupID == selection.variant.audioGroup
    case .subtitles: rendition.groupID == selection.variant.subtitlesGroup
    case .video: rendition.groupID == selection.variant.videoGroup
    case .closedCaptions: true
    }
  }

  /// The folder a chosen rendition downloads into: `audio-<language>` or
  /// `subtitles-<language>`, numbered when a language repeats. Nil when it has no URI.
  static func folder(for rendition: Rendition, among chosen: [Rendition]) -> String? {
    guard rendition.uri != nil else { return nil }
    let kind = rendition.type == .audio ? "audio" : "subtitles"
    let same = chosen.filter { $0.type == rendition.type && $0.uri != nil }
    let position = same.firstIndex(of: rendition) ?? 0
    let language = LocalFileName.sanitized(rendition.language ?? "und").lowercased()
      .filter { $0.isLetter || $0.isNumber || $0 == "-" }
    return "\(kind)\(position)-\(language.isEmpty ? "und" : language)"
  }
}
