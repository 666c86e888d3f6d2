import Foundation
import OfflineExport

/// What an export prints once its file is in place: a line for people, or one JSON object.
enum ExportOutput {
  /// `Exported /movies/film.mp4 (12.0 MiB, 6.0 s: video h264, audio aac eng; verified).`
  static func text(_ report: ExportReport) -> String {
    let tracks = report.tracks.map { track in
      [track.kind.rawValue, track.codec, track.language].compactMap { $0 }.joined(separator: " ")
    }
    return "Exported \(report.destination.path) (\(ByteCount.format(report.bytes)),"
      + String(format: " %.1f s", report.duration) + ": "
      + tracks.joined(separator: ", ") + "; verified)."
  }

  /// The report as one JSON object: the file, its size, duration and tracks, and `verified`
  /// (always true: an export that fails its check throws instead); with `event`, also an
  /// `event` field, as each of `get --json`'s lines has.
  static func json(_ report: ExportReport, event: String? = nil) -> String {
    var fields: [String: Any] = [
      "output": report.destination.path, "format": report.format.rawValue,
      "bytes": report.bytes, "duration": JSONLine.milliseconds(report.duration),
      "expectedDuration": JSONLine.milliseconds(report.expectedDuration),
      "discontinuities": report.discontinuities,
      "tracks": report.tracks.map(track), "verified": true,
      "packetsCompared": report.verification.packetsCompared,
    ]
    if let event { fields["event"] = event }
    return JSONLine.object(fields)
  }

  private static func track(_ track: ExportReport.Track) -> [String: Any] {
    var fields: [String: Any] = [
      "kind": track.kind.rawValue, "codec": track.codec, "default": track.isDefault,
      "packets": track.packets, "bytes": track.bytes,
    ]
    if let language = track.language { fields["language"] = language }
    return fields
  }
}
