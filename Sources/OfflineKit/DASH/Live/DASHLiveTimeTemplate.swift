import DASHManifest
import Foundation

/// How the offline MPD of a live DASH recording lists a Representation's segments: a
/// `SegmentTemplate` whose `@media` names each segment by its start (`t$Time$.m4s`, the name
/// the recorder gives each file) over a `SegmentTimeline`, so a gap in the ledger is a hole
/// in the timeline (an `S` whose `@t` jumps) and every segment after it still plays.
///
/// The file names of a recording with a gap do not count up by one, so `OfflineManifest`
/// would list them in a `SegmentList`, which ffmpeg 5.1's DASH demuxer (and mpv, which uses
/// it) stops reading after its second segment when segments hold 20 pictures or fewer: a
/// recording of 0.48 s segments with two missing played 24 of its 120 pictures from a
/// `SegmentList` in both, and all 120 from this template.
enum DASHLiveTimeTemplate {
  /// The local name of a segment of a track whose files are in `folder`, starting at `time`
  /// (in the track's timescale).
  static func localName(folder: String, time: UInt64) -> String {
    folder + "/t\(time).m4s"
  }

  /// The template listing `files`, whose segments are in `folder` under ``localName(folder:time:)``;
  /// nil when a segment is named otherwise (recorded before names followed times) or has no
  /// timing.
  static func template(_ files: OfflineRepresentation, folder: String) -> SegmentTemplate? {
    var entries: [SegmentTimelineEntry] = []
    var end: UInt64?
    for segment in files.segments {
      guard let time = segment.time, let duration = segment.duration, duration > 0,
        segment.name == localName(folder: folder, time: time)
      else { return nil }
      if let last = entries.last, last.duration == duration, time == end {
        entries[entries.count - 1].repeatCount += 1
      } else {
        entries.append(SegmentTimelineEntry(time: time, duration: duration))
      }
      end = time + duration
    }
    guard !entries.isEmpty else { return nil }
    return SegmentTemplate(
      media: folder + "/t$Time$.m4s", initializationTemplate: files.initialization,
      timescale: files.timescale,
      presentationTimeOffset: files.presentationTimeOffset == 0
        ? nil : files.presentationTimeOffset, timeline: entries)
  }

  /// `period`, made by `OfflineManifest` from `source`, with the Representation of each of
  /// `tracks` (found by its `@id`) listed by ``template(_:folder:)`` where it applies, the
  /// offline Period starting `start` seconds into the live one.
  static func apply(
    to period: inout Period, from source: MPD, start: Double?,
    tracks: [(RepresentationPath, DASHLiveState.Track)]
  ) {
    for (path, track) in tracks {
      guard let offline = track.offline(periodStart: start),
        let template = template(offline, folder: track.localFolder),
        let id = source.representation(at: path)?.id
      else { continue }
      for set in period.adaptationSets.indices {
        for index in period.adaptationSets[set].representations.indices
        where period.adaptationSets[set].representations[index].id == id {
          period.adaptationSets[set].representations[index].segmentInfo = SegmentInformation(
            template: template)
        }
      }
    }
  }
}
