import Foundation
import OfflineLocks

/// The progress line of a long `offline verify` on standard error, drawn only on a terminal
/// and at most every 200 ms: "Verifying ID: 12.0 MiB of 64.0 MiB".
final class VerifyProgress: Sendable {
  private let id: String
  private let console: Console
  private let last = Locked(ContinuousClock.now - .seconds(1))

  /// Nil when standard error is not a terminal.
  init?(id: String, console: Console) {
    guard console.stderrIsTerminal else { return nil }
    self.id = id
    self.console = console
  }

  /// Draws the line for `read` of `total` bytes.
  @Sendable func update(_ read: Int64, _ total: Int64) {
    let now = ContinuousClock.now
    let due = last.withLock { last in
      guard now - last >= .milliseconds(200) else { return false }
      last = now
      return true
    }
    guard due else { return }
    console.errRaw(
      "\r\u{1B}[KVerifying \(id): \(ByteCount.format(read)) of \(ByteCount.format(total))")
  }

  /// Removes the line.
  func clear() {
    console.errRaw("\r\u{1B}[K")
  }
}
