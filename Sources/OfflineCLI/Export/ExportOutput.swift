import ExportChannel
import Foundation

/// What an export prints once its file is in place: a line for people, or one JSON object.
enum ExportOutput {
  /// `Exported /movies/film.mp4 (12.0 MiB, 6.0 s: video h264, audio aac eng; verified).`
  static func text(_ summary: ExportSummary) -> String {
    let tracks = summary.tracks.map { track in
      [track.kind, track.codec, track.language].compactMap { $0 }.joined(separator: " ")
    }
    let sidecar = summary.subtitleSidecar.map { " Subtitles also in \($0)." } ?? ""
    return "Exported \(summary.output) (\(ByteCount.format(summary.bytes)),"
      + String(format: " %.1f s", summary.duration) + ": "
      + tracks.joined(separator: ", ") + "; verified)." + sidecar
  }

  /// The summary as one JSON object: the file, its size, duration and tracks, and `verified`
  /// (always true: an export that fails its check fails instead); with `event`, also an
  /// `event` field, as each of `get --json`'s lines has.
  static func json(_ summary: ExportSummary, event: String? = nil) -> String {
    var fields: [String: Any] = [
      "output": summary.output, "format": summary.format,
      "bytes": summary.bytes, "duration": JSONLine.milliseconds(summary.duration),
      "expectedDuration": JSONLine.milliseconds(summary.expectedDuration),
      "discontinuities": summary.discontinuities,
      "tracks": summary.tracks.map(track), "verified": true,
      "packetsCompared": summary.packetsCompared,
    ]
    if let event { fields["event"] = event }
    if let sidecar = summary.subtitleSidecar { fields["subtitleSidecar"] = sidecar }
    return JSONLine.object(fields)
  }

  private static func track(_ track: ExportSummary.Track) -> [String: Any] {
    var fields: [String: Any] = [
      "kind": track.kind, "codec": track.codec, "default": track.isDefault,
      "packets": track.packets, "bytes": track.bytes,
    ]
    if let language = track.language { fields["language"] = language }
    return fields
  }
}
