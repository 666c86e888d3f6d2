import Foundation
import TestSupport
import TestTiming
import Testing

/// The usage line a user sees, in `--help` and after a mistake, names what the command takes.
@Suite(.ownThreads, .timed) struct UsageLineTests {
  // Pins issue 12, item 4: `get`'s usage line omitted --ca-file, --stall-timeout, --retries,
  // --connections and --force (help rows and usage were written separately and drifted).
  @Test(arguments: [
    ["get"], ["add"], ["ls"], ["run"], ["info"], ["help"], ["cache", "get"], ["cache", "ls"],
  ])
  func everyOptionOfAHelpPageIsInItsUsageLine(command: [String]) async throws {
    let help = try await InProcessOffline.run(command + ["--help"]).stdoutText
    let usage = Self.section("USAGE:", of: help)
    let options = Self.optionNames(in: help).filter { !["-h", "--help"].contains($0.first) }

    #expect(!options.isEmpty, "\(help)")
    for names in options {
      #expect(names.contains { Self.mentions(usage, $0) }, "\(command): \(names) in \(usage)")
    }
  }

  // Pins issue 12, item 4: a mistake in a subcommand pointed to the top-level help only.
  @Test func aUsageErrorPointsToTheSubcommandsOwnHelp() async throws {
    let get = try await InProcessOffline.run(["get", "http://127.0.0.1:9/x", "--nope"])
    let cacheGet = try await InProcessOffline.run(["cache", "get"])

    #expect(get.status == 64)
    #expect(get.stderrText.hasPrefix("Error: Unknown option '--nope'.\nUsage: offline"))
    #expect(get.stderrText.contains("--ca-file <pem>"), "\(get.stderrText)")
    #expect(get.stderrText.hasSuffix("See 'offline get --help'.\n"), "\(get.stderrText)")
    #expect(cacheGet.status == 64)
    #expect(cacheGet.stderrText.hasSuffix("See 'offline cache get --help'.\n"))
  }

  /// The text of a help section: from its title to the next blank line, on one line.
  static func section(_ title: String, of help: String) -> String {
    let lines = help.components(separatedBy: "\n")
    guard let start = lines.firstIndex(where: { $0.hasPrefix(title) }) else { return "" }
    let body = lines[start...].prefix { !$0.isEmpty }
    return body.joined(separator: " ").dropFirst(title.count)
      .split(separator: " ").joined(separator: " ")
  }

  /// The names of each option row in OPTIONS (`-o, --output <path>` gives `-o`, `--output`).
  static func optionNames(in help: String) -> [[String]] {
    let lines = help.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: "OPTIONS:") else { return [] }
    return lines[(start + 1)...].prefix { !$0.isEmpty }
      .filter { $0.hasPrefix("  -") }
      .map { row in
        row.split(separator: " ").prefix { $0.hasPrefix("-") }
          .map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
      }
  }

  /// Whether `usage` has `name` as a whole word (`--json`, not `--json-lines`).
  static func mentions(_ usage: String, _ name: String) -> Bool {
    usage.split(whereSeparator: { " []|".contains($0) }).contains { $0 == name }
  }
}
