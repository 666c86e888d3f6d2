import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline help --man`: a man page made from the declarations, rendered by man itself.
@Suite(.ownThreads, .timed) struct ManPageTests {
  // Pins issue 12, item 4: there was no man page; it comes from the declarations, so it
  // names every command and option `--help` does.
  @Test func manRendersThePageWithoutWarningsAndItNamesEveryCommandAndOption() async throws {
    let folder = try TemporaryDirectory()
    let page = try await InProcessOffline.run(["help", "--man"])
    #expect(page.status == 0, "\(page.stderrText)")
    let file = folder.url.appending(path: "offline.1")
    try page.stdout.write(to: file)

    let rendered = try await ProcessRunner.run(
      "/bin/sh", ["-c", "MANWIDTH=100 MANPAGER=cat man --warnings -l '\(file.path)'"],
      timeout: 60)
    #expect(rendered.status == 0, "\(rendered.stderrText)")
    #expect(rendered.stderrText.isEmpty, "\(rendered.stderrText)")
    let text = rendered.stdoutText
    #expect(text.contains("OFFLINE(1)"))
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS"] {
      #expect(text.contains("\n\(section)\n"), "\(section)")
    }
    for words in [
      "get", "add", "ls", "run", "info", "cache", "cache get", "cache limit", "export", "pause",
      "renew-keys", "completions", "help",
    ] {
      #expect(text.contains("\n   \(words)\n"), "\(words)")
    }
    for option in [
      "--store", "--version", "--output", "--ca-file", "--stall-timeout", "--retries",
      "--connections", "--force", "--piece-retry-delay", "--parallel", "--min-free", "--rebuild",
      "--key", "--man",
    ] {
      #expect(text.contains(option), "\(option)")
    }
  }
}
