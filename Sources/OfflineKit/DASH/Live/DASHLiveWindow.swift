import DASHManifest
import Foundation
import HLSPlaylist

/// One chosen Representation's available segments at a reload, numbered as the
/// ``LiveRecording`` it feeds counts them: the decision value of a live HLS recording is the
/// one a live DASH recording uses, fed a media playlist made from the MPD's window.
///
/// A segment's number is its `$Number$` (the template's `@startNumber` plus its index, as
/// the origin counts it, so a number names the same segment in every MPD update). When the
/// media names use `$Time$` only, the origin's numbers need not follow its segments from one
/// update to the next: ``numberedByTime`` says so, and the recorder numbers them by their
/// times instead (``DASHLiveState/TimeNumbering``).
struct DASHLiveWindow: Sendable {
  /// The available segments, lowest number first.
  var segments: [SegmentReference]
  /// The initialization section to fetch once.
  var initialization: SegmentReference?
  /// Units per second of the segments' times and durations.
  var timescale: UInt64
  /// The `@presentationTimeOffset` of the segments' times, in ``timescale`` units.
  var presentationTimeOffset: Int64
  /// Whether the Representation's segments are all available: the MPD turned `static`,
  /// its `mediaPresentationDuration` is reached, or its Period, followed by another, ended.
  var ended: Bool
  /// Whether the media names use `$Time$` and not `$Number$`: the numbers are the
  /// recorder's, made from the times.
  var numberedByTime: Bool
  /// The longest segment, in whole seconds rounded up (at least 1): the target duration the
  /// recording's reload and silence rules count in.
  var targetDuration: Int
  /// Each segment's URL at the presentation's other sources (its other `BaseURL`s, best
  /// first), by its URL at the first (`absoluteString`); empty with one source.
  var alternates: [String: [URL]] = [:]
  /// The initialization section's URL at the other sources, best first.
  var initializationAlternates: [URL] = []
  /// The base URL of every source, the first included; empty with one source (the names of
  /// the recording's ``StreamFailover``).
  var sourceNames: [URL] = []
  /// The `@serviceLocation` of each source of ``sourceNames``, nil where it names none.
  var sourceLocations: [String?] = []

  /// The window of the Representation at `path` of `mpd`, at the origin's wall time `now`.
  ///
  /// - Throws: ``Transfer/Error`` `invalidMedia` naming what cannot be recorded: a
  ///   listing error.
  init(_ path: RepresentationPath, of mpd: MPD, manifestURL: URL, at now: Date)
    throws(Transfer.Error)
  {
    func refuse(_ what: String) -> Transfer.Error {
      Transfer.Error(.invalidMedia(what), url: manifestURL, destination: "")
    }
    let media = mpd.templateMedia(at: path) ?? ""
    numberedByTime = Self.isNamedByTime(media)
    let listing: RepresentationSegments
    let choices = SegmentResolver().baseURLChoices(for: path, in: mpd)
    do {
      if mpd.isLive {
        listing = try SegmentResolver().availableSegments(
          for: path, in: mpd, manifestURL: manifestURL, at: now, choice: choices.first ?? .first)
      } else {
        listing = try SegmentResolver().segments(
          for: path, in: mpd, manifestURL: manifestURL, choice: choices.first ?? .first)
      }
    } catch {
      throw refuse(
        "\(manifestURL.redactedForDisplay) is a live presentation that cannot be recorded"
          + " (\(error))")
    }
    let others = DASHDownload.otherSources(
      of: listing, path, in: mpd, choices: choices, manifestURL, at: mpd.isLive ? now : nil)
    (sourceNames, sourceLocations) = (others.names, others.locations)
    for (index, segment) in listing.segments.enumerated() {
      let elsewhere = others.listings.map { $0.segments[index].url }
      if !elsewhere.isEmpty { alternates[segment.url.absoluteString] = elsewhere }
    }
    initializationAlternates = others.listings.compactMap(\.initialization?.url)
    segments = listing.segments.filter { $0.number != nil && $0.number! <= UInt64(Int.max) }
    initialization = listing.initialization
    timescale = max(listing.timescale, 1)
    presentationTimeOffset = listing.presentationTimeOffset
    let endsAt = mpd.live.availabilityStartTime.flatMap { start in
      mpd.mediaPresentationDuration.map { start.addingTimeInterval($0) }
    }
    // A Period followed by another ends where it lasts; the last one may still grow.
    let periodEnd = mpd.live.availabilityStartTime.flatMap { start -> Date? in
      guard path.period + 1 < mpd.periods.count, let begins = mpd.periodStart(at: path.period),
        let lasts = mpd.periodDuration(at: path.period)
      else { return nil }
      return start.addingTimeInterval(begins + lasts)
    }
    ended =
      !mpd.isLive || endsAt.map { now >= $0 } ?? false || periodEnd.map { now >= $0 } ?? false
    let longest = segments.compactMap(\.duration).max() ?? 0
    targetDuration = max(1, Int((Double(longest) / Double(timescale)).rounded(.up)))
  }

  /// Whether segments named by `media` (a template's `@media`) are numbered by the
  /// recorder: named by `$Time$`, not by `$Number$`.
  static func isNamedByTime(_ media: String) -> Bool {
    media.contains("$Time") && !media.contains("$Number")
  }

  /// The seconds `segment` lasts.
  func seconds(of segment: SegmentReference) -> Double {
    Double(segment.duration ?? 0) / Double(timescale)
  }

  /// The window as the media playlist a ``LiveRecording`` reads: one segment per available
  /// one, numbered by its `$Number$`; `next` (the recording's next number) is its media
  /// sequence when the window is empty.
  func playlist(next: Int?) -> MediaPlaylist {
    let listed = segments.map { segment in
      Segment(
        uri: segment.url.absoluteString, duration: seconds(of: segment),
        mediaSequenceNumber: Int(segment.number ?? 0))
    }
    return MediaPlaylist(
      targetDuration: targetDuration,
      mediaSequence: listed.first?.mediaSequenceNumber ?? next ?? 0, hasEndList: ended,
      segments: listed)
  }
}

extension MPD {
  /// The `@media` of the template the Representation at `path` uses, inherited.
  func templateMedia(at path: RepresentationPath) -> String? {
    guard let representation = representation(at: path) else { return nil }
    let period = periods[path.period]
    let set = period.adaptationSets[path.adaptationSet]
    return representation.segmentInfo.template?.media ?? set.segmentInfo.template?.media
      ?? period.segmentInfo.template?.media
  }

  /// The `@startNumber` of the template the Representation at `path` uses, inherited (1
  /// when absent); nil without a template.
  func templateStartNumber(at path: RepresentationPath) -> UInt64? {
    guard let representation = representation(at: path) else { return nil }
    let period = periods[path.period]
    let set = period.adaptationSets[path.adaptationSet]
    let templates = [
      representation.segmentInfo.template, set.segmentInfo.template,
      period.segmentInfo.template,
    ].compactMap { $0 }
    guard !templates.isEmpty else { return nil }
    return templates.lazy.compactMap(\.startNumber).first ?? 1
  }
}
