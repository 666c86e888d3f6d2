import HLSPlaylist

/// What is chosen from a master playlist: one variant and its renditions.
struct HLSSelection: Sendable, Equatable {
  var variant: Variant
  var audio: [Rendition]
  var subtitles: [Rendition]

  /// Chooses from `master` by `options`; nil when the master has no variant.
  static func choose(from master: MasterPlaylist, options: HLSOptions) -> HLSSelection? {
    let variants = master.variants.sorted { $0.bandwidth < $1.bandwidth }
    guard let lowest = variants.first, let highest = variants.last else { return nil }
    let variant: Variant
    switch options.variant {
    case .highest: variant = highest
    case .lowest: variant = lowest
    case .minimumBitrate(let bits): variant = variants.first { $0.bandwidth >= bits } ?? highest
    }
    let audio = master.renditions.filter {
      $0.type == .audio && $0.groupID == variant.audioGroup
    }
    let subtitles = master.renditions.filter {
      $0.type == .subtitles && $0.groupID == variant.subtitlesGroup
    }
    return HLSSelection(
      variant: variant, audio: pick(audio, options.audio),
      subtitles: pick(subtitles, options.subtitles))
  }

  private static func pick(_ group: [Rendition], _ choice: HLSOptions.RenditionChoice)
    -> [Rendition]
  {
    let fallback = group.first { $0.isDefault } ?? group.first
    switch choice {
    case .none: return []
    case .all: return group
    case .default: return fallback.map { [$0] } ?? []
    case .languages(let wanted):
      var chosen: [Rendition] = []
      for language in wanted {
        for rendition in group
        where matches(rendition.language, language) && !chosen.contains(rendition) {
          chosen.append(rendition)
        }
      }
      return chosen.isEmpty ? (fallback.map { [$0] } ?? []) : chosen
    }
  }

  /// `en` matches `en`, `EN` and `en-US`; `en-US` matches only `en-US`.
  static func matches(_ language: String?, _ wanted: String) -> Bool {
    guard let language = language?.lowercased() else { return false }
    let wanted = wanted.lowercased()
    return language == wanted || language.hasPrefix(wanted + "-")
  }
}
