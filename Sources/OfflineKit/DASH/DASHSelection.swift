import DASHManifest
import HLSPlaylist

/// What is chosen from a manifest, Period by Period, with the options HLS has
/// (``StreamConfiguration``), applied per AdaptationSet:
///
/// - every video AdaptationSet keeps one Representation, chosen by ``StreamConfiguration/variant``
///   (highest or lowest `@bandwidth`, or the lowest at or above a bitrate, else the highest;
///   a Representation without `@bandwidth` is chosen only when none in its set has one, then
///   by its `@width` x `@height`, see ``order(of:)``);
/// - audio AdaptationSets are chosen by ``StreamConfiguration/audio`` (by `@lang`, the one whose
///   `Role` is `main`, else the first, all, or none), each keeping its highest Representation
///   (its lowest with `--variant lowest`);
/// - text AdaptationSets likewise by ``StreamConfiguration/subtitles``;
/// - other sets (thumbnails) are left out.
struct DASHSelection: Sendable, Equatable {
  /// The Representations to download, in document order.
  var paths: [RepresentationPath]
  /// Languages asked for that no AdaptationSet has, and what was taken instead.
  var warnings: [StreamWarning] = []

  /// Chooses from `mpd` by `options`.
  static func choose(from mpd: MPD, options: StreamConfiguration) -> DASHSelection {
    var selection = DASHSelection(paths: [])
    for (p, period) in mpd.periods.enumerated() {
      var sets: [DASHTrack: [Int]] = [:]
      for (a, set) in period.adaptationSets.enumerated() where !set.representations.isEmpty {
        sets[DASHTrack(set), default: []].append(a)
      }
      var chosen = sets[.video] ?? []
      for (track, choice, type) in [
        (DASHTrack.audio, options.audio, StreamWarning.Track.audio),
        (.text, options.subtitles, .subtitles),
      ] {
        let found = sets[track] ?? []
        let picked = pick(found, in: period, choice)
        chosen += picked
        if case .languages(let wanted) = choice, !found.isEmpty,
          !found.contains(where: { a in
            wanted.contains { HLSSelection.matches(period.adaptationSets[a].lang, $0) }
          }),
          // Said once, for the first Period, not again for every Period.
          !selection.warnings.contains(where: {
            if case .languageNotFound(let t, _, _) = $0 { return t == type }
            return false
          })
        {
          let taken = picked.first.map { period.adaptationSets[$0] }
          selection.warnings.append(
            .languageNotFound(type: type, wanted: wanted, taken: taken?.lang ?? taken?.id))
        }
      }
      for a in chosen.sorted() {
        let set = period.adaptationSets[a]
        let r = representation(in: set, video: DASHTrack(set) == .video, options.variant)
        selection.paths.append(RepresentationPath(period: p, adaptationSet: a, representation: r))
      }
    }
    return selection
  }

  /// The index of the Representation of `set` that `choice` picks; for audio and text a
  /// bitrate means the highest.
  static func representation(
    in set: AdaptationSet, video: Bool, _ choice: StreamConfiguration.VariantChoice
  ) -> Int {
    let order = order(of: set)
    switch choice {
    case .lowest: return order.first!
    case .highest: return order.last!
    case .minimumBitrate(let bits):
      guard video else { return order.last! }
      return order.first { (set.representations[$0].bandwidth ?? 0) >= bits } ?? order.last!
    }
  }

  /// The Representations of `set` a choice ranks, lowest first: those with a `@bandwidth`,
  /// by it; when none has one (unknown is not comparable with a known rate), all of them, by
  /// `@width` x `@height` (0 when not given); ties in document order.
  static func order(of set: AdaptationSet) -> [Int] {
    let known = set.representations.indices.filter { set.representations[$0].bandwidth != nil }
    guard known.isEmpty else {
      return known.sorted {
        (set.representations[$0].bandwidth!, $0) < (set.representations[$1].bandwidth!, $1)
      }
    }
    func pixels(_ index: Int) -> Int {
      let common = set.representations[index].common.inheriting(from: set.common)
      let (product, overflowed) = (common.width ?? 0).multipliedReportingOverflow(
        by: common.height ?? 0)
      return overflowed ? Int.max : product
    }
    return set.representations.indices.sorted { (pixels($0), $0) < (pixels($1), $1) }
  }

  /// The AdaptationSets among `found` (indices into `period`) that `choice` picks.
  private static func pick(
    _ found: [Int], in period: Period, _ choice: StreamConfiguration.RenditionChoice
  )
    -> [Int]
  {
    let fallback =
      found.first { a in
        period.adaptationSets[a].roles.contains {
          $0.schemeIdUri == "urn:mpeg:dash:role:2011" && $0.value == "main"
        }
      } ?? found.first
    switch choice {
    case .none: return []
    case .all: return found
    case .default: return fallback.map { [$0] } ?? []
    case .languages(let wanted):
      var chosen: [Int] = []
      for language in wanted {
        for a in found
        where HLSSelection.matches(period.adaptationSets[a].lang, language) && !chosen.contains(a) {
          chosen.append(a)
        }
      }
      return chosen.isEmpty ? (fallback.map { [$0] } ?? []) : chosen
    }
  }
}
