import Foundation
import TestSupport
import Testing

/// What `run` and `get` show on a terminal while they work, read off a real terminal (tmux,
/// 100 x 20) against nginx serving `large.bin` at 1 MiB/s, so the view lasts some seconds.
@Suite struct LiveViewTests {
  /// The screen's lines holding `text`.
  static func lines(_ screen: String, with text: String) -> [Substring] {
    screen.split(separator: "\n").filter { $0.contains(text) }
  }

  /// Whether `line` has a percentage (` 42%`).
  static func hasPercentage(_ line: Substring) -> Bool {
    line.range(of: #"\d+%"#, options: .regularExpression) != nil
  }

  // Pins issue 12, item 4: on a terminal `offline run` printed nothing while it worked for
  // minutes.
  @Test func runShowsALiveLinePerContentAndTheFinishedOnesAboveIt() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let big = try await fixture.addOne([fixture.url("large.bin"), "--title", "Big Movie"])
    let small = try await fixture.addOne([fixture.url("small.bin")])
    let terminal = try await TmuxSession(width: 100, height: 20)
    try await terminal.run(
      script: "'\(OfflineBinary.path)' --store '\(fixture.store.path)' run", in: fixture.folder.url)

    let live = try await terminal.wait(seconds: 30) { screen in
      Self.lines(screen, with: "Big Movie").contains {
        Self.hasPercentage($0) && $0.contains("[") && $0.contains("MiB/s")
      }
    }
    let shown = (try? await terminal.screen()) ?? ""
    let during = try #require(live, "no live line for Big Movie: \(shown)")
    #expect(during.contains("\(small): finished"), "\(during)")
    for line in during.split(separator: "\n") { #expect(line.count <= 100, "\(line)") }

    let end = try await terminal.waitForEnd(seconds: 60)
    let last = (try? await terminal.screen()) ?? ""
    let ended = try #require(end, "\(last)")
    #expect(ended.contains("\nENDED-0"), "\(ended)")
    #expect(ended.contains("\(big): finished"), "\(ended)")
    #expect(ended.contains("\(small): finished"), "\(ended)")
    #expect(!Self.lines(ended, with: "Big Movie").contains(where: Self.hasPercentage), "\(ended)")
  }

  // Pins issue 12, item 4: `get`'s progress was a line of numbers with no bar.
  @Test func getDrawsABarThatFitsTheTerminal() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let out = fixture.folder.url.appending(path: "out.bin").path
    let terminal = try await TmuxSession(width: 72, height: 10)
    try await terminal.run(
      script: "'\(OfflineBinary.path)' --store '\(fixture.store.path)' get"
        + " '\(fixture.url("large.bin"))' -o '\(out)'", in: fixture.folder.url)

    let live = try await terminal.wait(seconds: 30) { screen in
      screen.split(separator: "\n").contains { $0.hasPrefix("[") && Self.hasPercentage($0) }
    }
    let shown = (try? await terminal.screen()) ?? ""
    let during = try #require(live, "no bar: \(shown)")
    let bar = try #require(during.split(separator: "\n").first { $0.hasPrefix("[") })
    #expect(bar.count <= 72 && bar.count >= 60, "\(bar)")
    #expect(bar.contains("MiB"), "\(bar)")

    let end = try await terminal.waitForEnd(seconds: 60)
    let last = (try? await terminal.screen()) ?? ""
    let ended = try #require(end, "\(last)")
    #expect(ended.contains("\nENDED-0"), "\(ended)")
    #expect(ended.contains("Saved \(out)"), "\(ended)")
  }
}
