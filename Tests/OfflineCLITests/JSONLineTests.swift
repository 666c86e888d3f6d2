import Foundation
import OfflineKit
import TestTiming
import Testing

@testable import OfflineCLI

/// What `--json` prints, read as a program reading it would.
@Suite(.ownThreads, .timed) struct JSONLineTests {
  // Pins: durations carried float noise (`433.4800000000001`).
  @Test func secondsArePrintedToTheMillisecond() throws {
    let progress = OfflineProgress(bytes: 0, total: 433_480_000_000_0001, bytesPerSecond: 1e13)
    let line = JSONLine.encode(Transfer.Event.progress(progress))
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    let seconds = try #require(object?["secondsRemaining"] as? Double)
    #expect(seconds == 433.48)
    #expect(
      line.contains("\"secondsRemaining\":433.48,") || line.contains("\"secondsRemaining\":433.48}")
    )
  }
}
