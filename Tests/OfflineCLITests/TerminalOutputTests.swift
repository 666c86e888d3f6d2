import Foundation
import TestSupport
import TestTiming
import Testing

/// What `ls` prints to a terminal: text from a title or a server never carries raw control
/// characters, and a URL is cut to a readable length.
@Suite(.ownThreads, .timed) struct TerminalOutputTests {
  // Pins: `offline ls` passed escape sequences through raw.
  @Test func lsEscapesControlCharactersInTitles() async throws {
    let fixture = try QueueFixture()
    let hostile = "Movie\u{1B}]0;pwned\u{07}\u{1B}[2J"
    _ = try await fixture.addOne([fixture.url("small.bin"), "--title", hostile])
    let listed = try await fixture.offline(["ls"])

    #expect(listed.status == 0)
    #expect(!listed.stdoutText.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    #expect(listed.stdoutText.contains("Movie\\u{1B}]0;pwned\\u{07}\\u{1B}[2J"))
  }

  @Test func lsCutsAVeryLongURL() async throws {
    let fixture = try QueueFixture()
    let long = fixture.url("small.bin") + "?" + String(repeating: "a", count: 20_000)
    _ = try await fixture.addOne([long])
    let listed = try await fixture.offline(["ls"])

    #expect(listed.status == 0)
    let longest = listed.stdoutText.split(separator: "\n").map(\.count).max() ?? 0
    #expect(longest < 400, "a line of \(longest) characters")
  }
}
