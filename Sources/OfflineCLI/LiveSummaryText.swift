import Foundation
import OfflineKit

/// How `ls` and `info ID` show a live recording (``LiveRecordingSummary``).
enum LiveSummaryText {
  /// One line for `ls`: `live: recording, 12 segments (12.0 s), 1 gap, 2.0 s behind`; for
  /// a part of a split recording, `part 2 of the recording of ID` after the status.
  static func line(_ live: LiveRecordingSummary) -> String {
    var parts = [status(live), segments(live), count(live.gaps.count, "gap")]
    if let part = part(live) { parts.insert(part, at: 1) }
    if let delay = live.liveEdgeDelay {
      parts.append(String(format: "%.1f s behind the live edge", delay))
    }
    return "live: " + parts.joined(separator: ", ")
  }

  /// The lines for `info ID`: the status, which part of a split recording it is, what is
  /// recorded, and each gap.
  static func lines(_ live: LiveRecordingSummary) -> [String] {
    var lines = [
      "Live recording: " + status(live), "  Recorded: " + segments(live),
      "  Gaps: \(live.gaps.count)"
        + (live.gaps.isEmpty ? "" : " (\(count(live.missingSegments, "segment")) missing)"),
    ]
    if let part = part(live) { lines.insert("  P" + part.dropFirst(), at: 1) }
    for gap in live.gaps {
      var range =
        gap.count == 1 ? "\(gap.firstSequence)" : "\(gap.firstSequence)-\(gap.lastSequence)"
      if let period = gap.period { range = wholePeriod(period, gap, numbers: range) }
      lines.append("    \(range): \(gap.reason.words)")
    }
    if let delay = live.liveEdgeDelay {
      lines.append(String(format: "  Behind the live edge: %.1f s", delay))
    }
    return lines
  }

  /// `part 2 of the recording of ID` for a part of a recording split through the queue.
  private static func part(_ live: LiveRecordingSummary) -> String? {
    guard let part = live.part, let recording = live.recordingID else { return nil }
    return "part \(part) of the recording of \(recording)"
  }

  /// A gap that is a whole Period: `Period p1 (6.0-12.0 s, segments 7-12)`.
  private static func wholePeriod(
    _ id: String, _ gap: LiveRecordingSummary.Gap, numbers: String
  ) -> String {
    var details: [String] = []
    if let start = gap.periodStart {
      details.append(
        String(format: "%.1f", start) + (gap.periodEnd.map { String(format: "-%.1f", $0) } ?? "")
          + " s")
    }
    if gap.count > 0 { details.append((gap.count == 1 ? "segment " : "segments ") + numbers) }
    return "whole Period" + (id.isEmpty ? "" : " " + id)
      + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
  }

  private static func status(_ live: LiveRecordingSummary) -> String {
    if live.isRecording { return "recording" }
    return live.finishReason.map { "finished (\($0))" } ?? "not recording"
  }

  private static func segments(_ live: LiveRecordingSummary) -> String {
    count(live.recordedSegments, "segment") + String(format: " (%.1f s)", live.recordedSeconds)
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)" + (number == 1 ? "" : "s")
  }
}
