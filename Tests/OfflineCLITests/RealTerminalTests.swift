import Foundation
import TestSupport
import TestTiming
import Testing

/// What `offline` shows on a real terminal: the live view of `run` and `get` read off tmux
/// (100 x 20) against nginx serving `large.bin` (8 MiB) at 2 MiB/s, so the view lasts some
/// seconds, and the password prompt on a pty. A terminal needs a real process.
@Suite(.ownThreads, .timed) struct RealTerminalTests {
  // Moved from LiveViewTests.
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
    let fixture = try QueueFixture(limitRate: "2m")
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
    let screenThen = live == nil ? ((try? await terminal.screen()) ?? "") : ""
    let during = try #require(live, "no live line for Big Movie: \(screenThen)")
    #expect(during.contains("\(small): finished"), "\(during)")
    for line in during.split(separator: "\n") { #expect(line.count <= 100, "\(line)") }

    let end = try await terminal.waitForEnd(seconds: 60)
    let screenAtEnd = end == nil ? ((try? await terminal.screen()) ?? "") : ""
    let ended = try #require(end, "\(screenAtEnd)")
    #expect(ended.contains("\nENDED-0"), "\(ended)")
    #expect(ended.contains("\(big): finished"), "\(ended)")
    #expect(ended.contains("\(small): finished"), "\(ended)")
    #expect(!Self.lines(ended, with: "Big Movie").contains(where: Self.hasPercentage), "\(ended)")
  }

  // Pins issue 12, item 4: `get`'s progress was a line of numbers with no bar.
  @Test func getDrawsABarThatFitsTheTerminal() async throws {
    let fixture = try QueueFixture(limitRate: "2m")
    let out = fixture.folder.url.appending(path: "out.bin").path
    let terminal = try await TmuxSession(width: 72, height: 10)
    try await terminal.run(
      script: "'\(OfflineBinary.path)' --store '\(fixture.store.path)' get"
        + " '\(fixture.url("large.bin"))' -o '\(out)'", in: fixture.folder.url)

    let live = try await terminal.wait(seconds: 30) { screen in
      screen.split(separator: "\n").contains { $0.hasPrefix("[") && Self.hasPercentage($0) }
    }
    let screenThen = live == nil ? ((try? await terminal.screen()) ?? "") : ""
    let during = try #require(live, "no bar: \(screenThen)")
    let bar = try #require(during.split(separator: "\n").first { $0.hasPrefix("[") })
    #expect(bar.count <= 72 && bar.count >= 60, "\(bar)")
    #expect(bar.contains("MiB"), "\(bar)")

    let end = try await terminal.waitForEnd(seconds: 60)
    let screenAtEnd = end == nil ? ((try? await terminal.screen()) ?? "") : ""
    let ended = try #require(end, "\(screenAtEnd)")
    #expect(ended.contains("\nENDED-0"), "\(ended)")
    #expect(ended.contains("Saved \(out)"), "\(ended)")
  }

  // Moved from GetRequestOptionTests.
  /// Pins: `-u USER` without a password could not ask for one; it is asked on the terminal
  /// (a pty here) and never echoed.
  @Test func aPasswordLeftOutIsAskedForOnTheTerminalWithoutEcho() async throws {
    let setup = try await GetRequestOptionTests.Setup()
    let driver = """
      import os, pty, sys
      pid, fd = pty.fork()
      if pid == 0:
          os.execv(sys.argv[1], sys.argv[1:])
      out = b""
      while b"password" not in out:
          out += os.read(fd, 1024)
      os.write(fd, sys.stdin.buffer.readline())
      while True:
          try:
              chunk = os.read(fd, 1024)
          except OSError:
              break
          if not chunk:
              break
          out += chunk
      _, status = os.waitpid(pid, 0)
      sys.stdout.buffer.write(out)
      sys.exit(os.waitstatus_to_exitcode(status))
      """
    let script = setup.folder.file("terminal-driver.py")
    try Data(driver.utf8).write(to: script)
    let command = [
      "/usr/bin/python3", script.path, OfflineBinary.path, "--store", setup.store, "get",
      setup.origin.fileURL("a.bin", in: "basic").absoluteString, "-o", setup.output, "-u",
      NginxGates.user,
    ].map { "'\($0)'" }.joined(separator: " ")
    let result = try await ProcessRunner.run(
      "/bin/sh", ["-c", "printf '%s\\n' '\(NginxGates.password)' | \(command)"], timeout: 60)
    #expect(result.status == 0, "\(result.stdoutText) \(result.stderrText)")
    #expect(result.stdoutText.contains("Enter host password for user 'ana'"))
    #expect(!result.stdoutText.contains(NginxGates.password), "\(result.stdoutText)")
    #expect(setup.downloaded)
  }
}
