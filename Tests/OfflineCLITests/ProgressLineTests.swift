import TestTiming
import Testing

@testable import OfflineCLI

/// The progress bar of `get` and `run`, without a terminal.
@Suite(.ownThreads, .timed) struct ProgressLineTests {
  // Pins issue 12, item 4: the progress line had no bar and did not follow the terminal's
  // width.
  @Test(arguments: [64, 72, 100, 200])
  func theBarFillsTheWidthLessOneColumn(width: Int) {
    let text = "4.0 MiB / 8.0 MiB   50%  1.0 MiB/s  0:00:04 left"
    let line = ProgressLine.withBar(text, fraction: 0.5, width: width)

    #expect(line.count == width - 1, "\(line)")
    #expect(line.hasSuffix(" " + text))
    let marks = line.prefix { $0 != " " }.dropFirst().dropLast()
    #expect(marks.filter { $0 == "#" }.count == marks.count / 2, "\(line)")
  }

  @Test func withoutAKnownFractionOrRoomThereIsNoBarAndTheTextIsCut() {
    #expect(
      ProgressLine.withBar("1.0 MiB  1.0 MiB/s", fraction: nil, width: 80) == "1.0 MiB  1.0 MiB/s")
    #expect(
      ProgressLine.withBar(String(repeating: "x", count: 30), fraction: 0.5, width: 20).count == 19)
  }

  @Test func theBarNeverOverflows() {
    #expect(ProgressLine.bar(1.7, width: 10) == "[##########]")
    #expect(ProgressLine.bar(-1, width: 4) == "[----]")
  }
}
