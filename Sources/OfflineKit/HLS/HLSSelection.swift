import HLSPlaylist

/// What is chosen from a master playlist: one variant and its renditions.
struct HLSSelection: Sendable, Equatable {
  var variant: Variant
  var audio: [Rendition]
  var subtitles: [Rendition]
  /// Renditions asked for that could not be included, and why.
  var warnings: [StreamWarning] = []

  /// Chooses from `master` by `options` among its ``MasterPlaylist/primaryVariants`` (the
  /// first content steering pathway, each redundant stream once: the others are backups);
  /// nil when the master has no variant.
  static func choose(from master: MasterPlaylist, options: StreamConfiguration) -> HLSSelection? {
    let variants = master.primaryVariants.sorted { $0.bandwidth < $1.bandwidth }
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
    var warnings: [StreamWarning] = []
    for (type, group, found, choice) in [
      (StreamWarning.Track.audio, variant.audioGroup, audio, options.audio),
      (.subtitles, variant.subtitlesGroup, subtitles, options.subtitles),
    ] {
      guard choice != .none, let group else { continue }
      if found.isEmpty {
        warnings.append(.missingRenditionGroup(type: type, group: group))
      } else if case .languages(let wanted) = choice,
        !found.contains(where: { rendition in wanted.contains { matches(rendition.language, $0) } })
      {
        let taken = pick(found, choice).first
        warnings.append(
          .languageNotFound(type: type, wanted: wanted, taken: taken?.language ?? taken?.name))
      }
    }
    return HLSSelection(
      variant: variant, audio: pick(audio, options.audio),
      subtitles: pick(subtitles, options.subtitles), warnings: warnings)
  }

  private static func pick(_ group: [Rendition], _ choice: StreamConfiguration.RenditionChoice)
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
