/// The `.vtt` file written beside an export (``StreamExport/writesSubtitleSidecar``): the
/// subtitle track's cues in the file's times, for players and editors that read subtitles
/// only from a file of their own.
enum WebVTTSidecar {
  /// The WebVTT text of `cues` (times in seconds from the file's start).
  static func text(_ cues: [WebVTTCue]) -> String {
    "WEBVTT\n" + cues.map { "\n\(time($0.start)) --> \(time($0.end))\n\($0.text)\n" }.joined()
  }

  /// `HH:MM:SS.mmm`.
  static func time(_ seconds: Double) -> String {
    let milliseconds = Int((seconds * 1000).rounded())
    let (hours, rest) = milliseconds.quotientAndRemainder(dividingBy: 3_600_000)
    let (minutes, rest2) = rest.quotientAndRemainder(dividingBy: 60_000)
    let (whole, fraction) = rest2.quotientAndRemainder(dividingBy: 1000)
    func padded(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(hours, 2)):\(padded(minutes, 2)):\(padded(whole, 2)).\(padded(fraction, 3))"
  }
}
