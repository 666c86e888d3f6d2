import Foundation
import OfflineKit

/// The progress line: a bar that fills the terminal's width, then bytes, percent, speed and
/// time left, as curl, pip and aria2 show them.
enum ProgressLine {
  /// `1.2 MiB / 8.0 MiB   15%  1.0 MiB/s  0:00:07 left`.
  static func render(_ progress: OfflineProgress) -> String {
    var parts = [ByteCount.format(progress.bytes)]
    if let total = progress.total {
      parts[0] += " / " + ByteCount.format(total)
    }
    if let fraction = progress.fractionCompleted {
      parts.append(String(format: "%3.0f%%", fraction * 100))
    }
    parts.append(ByteCount.format(Int64(progress.bytesPerSecond)) + "/s")
    if let left = progress.secondsRemaining, left.isFinite, left < 360_000 {
      parts.append(clock(left) + " left")
    }
    return parts.joined(separator: "  ")
  }

  /// `0:01:05`.
  static func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
  }

  /// `[#####-----] text`, in `width - 1` columns (the last one is never written, so the
  /// terminal does not wrap); without a bar when the fraction is unknown or too little room
  /// is left, and `text` cut to fit.
  static func withBar(_ text: String, fraction: Double?, width: Int) -> String {
    let room = width - 1
    let barWidth = room - text.count - 3
    guard let fraction, barWidth >= 10 else { return String(text.prefix(room)) }
    return bar(fraction, width: barWidth) + " " + text
  }

  /// `[####------]` with `width` marks between the brackets.
  static func bar(_ fraction: Double, width: Int) -> String {
    let filled = min(width, max(0, Int((fraction * Double(width)).rounded(.down))))
    return "[" + String(repeating: "#", count: filled)
      + String(repeating: "-", count: width - filled) + "]"
  }
}
