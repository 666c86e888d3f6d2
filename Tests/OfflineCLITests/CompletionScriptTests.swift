import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline completions bash|zsh|fish`: scripts made from the declarations, loaded in the
/// real shells.
@Suite(.ownThreads, .timed) struct CompletionScriptTests {
  /// What bash's `_offline` offers for the words `typed` (the last one is being completed).
  static func bashOffers(_ typed: [String], script: URL) async throws -> [String] {
    let words = typed.map { "'\($0)'" }.joined(separator: " ")
    let program = """
      source '\(script.path)'
      COMP_WORDS=(offline \(words)); COMP_CWORD=\(typed.count)
      _offline
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try await ProcessRunner.run("/bin/bash", ["-c", program], timeout: 30)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stderrText.isEmpty, "\(result.stderrText)")
    return result.stdoutText.split(separator: "\n").map(String.init)
  }

  static func script(_ shell: String, in folder: TemporaryDirectory) async throws -> URL {
    let result = try await InProcessOffline.run(["completions", shell])
    #expect(result.status == 0, "\(result.stderrText)")
    let file = folder.url.appending(path: "offline.\(shell)")
    try result.stdout.write(to: file)
    return file
  }

  // Pins issue 12, item 4: there were no completions; they come from the declarations, so a
  // new subcommand or option is offered without anyone editing a script.
  @Test func bashOffersSubcommandsOptionsAndTheirValues() async throws {
    let folder = try TemporaryDirectory()
    let script = try await Self.script("bash", in: folder)
    let registered = try await ProcessRunner.run(
      "/bin/bash", ["-c", "source '\(script.path)' && complete -p offline"], timeout: 30)
    #expect(registered.stdoutText == "complete -F _offline offline\n", "\(registered.stderrText)")

    let subcommands = try await Self.bashOffers([""], script: script)
    for name in [
      "get", "add", "ls", "run", "info", "cache", "export", "pause", "completions", "help",
    ] {
      #expect(subcommands.contains(name), "\(subcommands)")
    }
    let get = try await Self.bashOffers(["get", "--"], script: script)
    for option in ["--output", "--sha256", "--ca-file", "--stall-timeout", "--retries", "--force"] {
      #expect(get.contains(option), "\(get)")
    }
    #expect(!get.contains("--store"), "a root option is not get's")
    await #expect(
      try Self.bashOffers(["--store", "/tmp", "get", "--sh"], script: script) == ["--sha256"])
    await #expect(
      try Self.bashOffers(["get", "--variant", ""], script: script) == ["highest", "lowest"])
    await #expect(try Self.bashOffers(["cache", "l"], script: script) == ["ls", "limit"])
    await #expect(try Self.bashOffers(["cache", "get", "--"], script: script).contains("--key"))
    await #expect(
      try Self.bashOffers(["completions", ""], script: script) == ["bash", "zsh", "fish"])
    await #expect(
      try Self.bashOffers(["export", "movie", "--format", ""], script: script) == ["mp4", "mkv"])
  }

  @Test func bashOffersFileNamesForPathValues() async throws {
    let folder = try TemporaryDirectory()
    let script = try await Self.script("bash", in: folder)
    try Data().write(to: folder.url.appending(path: "movie-list.txt"))
    let offered = try await Self.bashOffers(
      ["add", "-i", folder.url.path + "/movie-"], script: script)
    #expect(offered == [folder.url.path + "/movie-list.txt"])
  }

  @Test func zshAndFishScriptsAreValidAndNameEveryCommand() async throws {
    let folder = try TemporaryDirectory()
    for (shell, binary) in [("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")] {
      let script = try await Self.script(shell, in: folder)
      let checked = try await ProcessRunner.run(binary, ["-n", script.path], timeout: 30)
      #expect(checked.status == 0, "\(shell): \(checked.stderrText)")
      let text = try String(contentsOf: script, encoding: .utf8)
      for word in ["get", "cache", "limit", "renew-keys", "completions", "stall-timeout"] {
        #expect(text.contains(word), "\(shell): \(word)")
      }
    }
  }

  @Test func fishOffersGetsOptionsAfterGet() async throws {
    let folder = try TemporaryDirectory()
    let script = try await Self.script("fish", in: folder)
    let result = try await ProcessRunner.run(
      "/usr/bin/fish",
      ["--no-config", "-c", "source '\(script.path)'; complete -C 'offline get --st'"],
      timeout: 30)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stdoutText.hasPrefix("--stall-timeout"), "\(result.stdoutText)")
  }
}
