/// Makes the offline copy of a manifest: the same Periods, AdaptationSets and
/// Representations (those the caller kept), each Representation's segments named by the
/// caller.
///
/// Segments whose names count up by one (`v/s00000.m4s`, `v/s00001.m4s`, see
/// `NumberedNames`) and whose durations are known are written as a `SegmentTemplate` with
/// `$Number$`, `@startNumber` and a `SegmentTimeline`: that is the form ffmpeg 5.1's DASH
/// demuxer decodes to the end. Other names get a `SegmentList` of relative `SegmentURL`s,
/// which ffmpeg 5.1 may stop reading after its second segment: it probes each new segment of
/// a `SegmentList` for stream information, and when that probe reads a segment to its end
/// (a segment of 20 video frames or fewer), the demuxer forgets it has a next segment to
/// open (`dash_read_packet` clears `is_restart_needed` after `reopen_demux_for_component`,
/// which set it). A Representation stored as one file with no initialization section (such
/// as a WebVTT track) gets a relative `BaseURL` instead. Every `BaseURL` of the origin is
/// dropped (and `ContentSteering` with them: one local location, nothing to steer) and the
/// MPD's own is `./` (`baseURL`), so the names resolve against the offline manifest's own
/// location, and the copy is `static`, in the full profile (`profile`), with each Period's start and duration
/// written out.
///
/// ```swift
/// let offline = try OfflineManifest.make(from: mpd, files: [path: files])
/// try MPDWriter.write(offline).write(to: folder.appending(path: "offline.mpd"), ...)
/// ```
public enum OfflineManifest {
  /// The profile every offline copy declares (ISO/IEC 23009-1 §8.2): its SegmentTemplates
  /// and SegmentLists meet the full profile whatever the origin's was, and ffmpeg 5.1's DASH demuxer refuses an
  /// MPD without a profile it knows.
  public static let profile = "urn:mpeg:dash:profile:full:2011"

  /// The `BaseURL` of every offline copy: the manifest's own folder. Without one, ffmpeg
  /// 5.1's DASH demuxer (and mpv) given the manifest by a relative path (`show/index.mpd`)
  /// puts that folder in front of each name twice (`show/show/p0/a0-r0/init.mp4`) and opens
  /// nothing; with `./` the names resolve the same for a relative or absolute path and over
  /// http.
  public static let baseURL = "./"

  /// The offline manifest for `files`; Representations without an entry are left out, and
  /// so are AdaptationSets and Periods left empty.
  ///
  /// - Throws: `MPDError` (`missingAttribute`) when `files` names a Representation the
  ///   manifest does not have.
  public static func make(from mpd: MPD, files: [RepresentationPath: OfflineRepresentation])
    throws -> MPD
  {
    for path in files.keys where mpd.representation(at: path) == nil {
      throw MPDError(.missingAttribute, at: path.description, "There is no such Representation.")
    }
    var result = mpd
    result.type = .static
    // A copy on disk is all available at once: no availability times, no reloads.
    result.live = LiveTiming()
    result.profiles = profile
    result.baseURLs = [baseURL]
    // One local location: nothing to steer between.
    result.contentSteering = nil
    result.periods = []
    for (p, period) in mpd.periods.enumerated() {
      var copy = period
      copy.start = mpd.periodStart(at: p)
      copy.duration = mpd.periodDuration(at: p)
      copy.baseURLs = []
      copy.segmentInfo = .init()
      copy.adaptationSets = []
      for (a, set) in period.adaptationSets.enumerated() {
        var setCopy = set
        setCopy.baseURLs = []
        setCopy.segmentInfo = .init()
        setCopy.representations = set.representations.enumerated().compactMap { r, original in
          let path = RepresentationPath(period: p, adaptationSet: a, representation: r)
          return files[path].map { offline(original, $0) }
        }
        if !setCopy.representations.isEmpty { copy.adaptationSets.append(setCopy) }
      }
      if !copy.adaptationSets.isEmpty { result.periods.append(copy) }
    }
    return result
  }

  /// `representation` pointing at its local files.
  private static func offline(
    _ representation: Representation, _ files: OfflineRepresentation
  ) -> Representation {
    var copy = representation
    copy.baseURLs = []
    copy.segmentInfo = .init()
    if files.initialization == nil, files.segments.count == 1, files.segments[0].duration == nil {
      copy.baseURLs = [files.segments[0].name]
      return copy
    }
    let durations = files.segments.compactMap(\.duration)
    let timed = durations.count == files.segments.count && !durations.isEmpty
    let offset = files.presentationTimeOffset == 0 ? nil : files.presentationTimeOffset
    if timed, !(files.initialization ?? "").contains("$"),
      let numbered = NumberedNames(files.segments.map(\.name))
    {
      copy.segmentInfo = SegmentInformation(
        template: SegmentTemplate(
          media: numbered.media, initializationTemplate: files.initialization,
          timescale: files.timescale, startNumber: numbered.startNumber,
          presentationTimeOffset: offset, timeline: timeline(files.segments)))
      return copy
    }
    var list = SegmentList(
      timescale: files.timescale, presentationTimeOffset: offset,
      initialization: files.initialization.map { Initialization(sourceURL: $0) },
      segmentURLs: files.segments.map { SegmentURL(media: $0.name) })
    if timed { list.timeline = timeline(files.segments) }
    copy.segmentInfo = SegmentInformation(list: list)
    return copy
  }

  /// The segments' timing as `S` entries: runs of one duration become one entry with `r`,
  /// and `t` is written where a segment does not start where the one before it ended.
  static func timeline(_ segments: [OfflineRepresentation.Segment]) -> [SegmentTimelineEntry] {
    var entries: [SegmentTimelineEntry] = []
    var end: UInt64? = nil
    for segment in segments {
      guard let duration = segment.duration else { continue }
      let start = segment.time ?? end ?? 0
      if let last = entries.last, last.duration == duration, start == end {
        entries[entries.count - 1].repeatCount += 1
      } else {
        entries.append(
          SegmentTimelineEntry(
            time: entries.isEmpty || start != end ? start : nil, duration: duration))
      }
      end = start.addingReportingOverflow(duration).partialValue
    }
    return entries
  }
}
