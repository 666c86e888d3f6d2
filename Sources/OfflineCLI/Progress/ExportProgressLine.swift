import ExportChannel
import Foundation

/// The progress line of an export on standard error, drawn only on a terminal and at most
/// four times a second: `[#####-----] Exporting: writing  45%`, then `verifying`.
final class ExportProgressLine: Sendable {
  private let console: Console
  private let redraw = RedrawPace()

  /// Nil when `shown` is false or standard error is not a terminal.
  init?(console: Console, shown: Bool) {
    guard shown, console.stderrIsTerminal else { return nil }
    self.console = console
  }

  /// Draws the line for `fraction` of `phase` when a redraw is due. Called on the thread that
  /// reads the exporter's messages.
  func update(phase: ExportMessage.Phase, fraction: Double) {
    guard redraw.isDue() else { return }
    let text = "Exporting: \(phase.rawValue) " + String(format: "%3.0f%%", fraction * 100)
    console.errRaw(
      "\r" + ProgressLine.withBar(text, fraction: fraction, width: console.columns) + "\u{1B}[K")
  }

  /// Removes the line.
  func clear() {
    console.errRaw("\r\u{1B}[K")
  }
}
