import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineCLI

/// How `get --refresh-command` reads what the command prints (issue 36, items 8 and 13).
@Suite(.ownThreads, .timed) struct RefreshCommandOutputTests {
  static let fresh = URL(string: "https://127.0.0.1:9/big.bin?sig=s1gnature-s3cret")!
  /// A run's surroundings with this process's environment (the command needs `PATH`).
  static let host = CommandHost(
    environment: ProcessInfo.processInfo.environment, standardInput: .empty,
    workingDirectory: URL(fileURLWithPath: "/"), console: CapturedConsole(), ownsProcess: false)

  /// Pins: a command that left a child in the background (`helper &`) holding its output
  /// made `get` wait the whole 20 s, then throw away the URL it had printed at once.
  @Test func aCommandThatLeavesAChildInTheBackgroundIsNotWaitedFor() {
    let started = ContinuousClock.now
    let answer = RefreshCommand.freshURL(
      "printf '%s\\n' '\(Self.fresh.absoluteString)'; sleep 30 2>/dev/null &",
      for: URL(string: "https://127.0.0.1:9/big.bin")!, status: 410, host: Self.host)
    let waited = ContinuousClock.now - started
    #expect((try? answer.get()) == Self.fresh, "\(answer)")
    #expect(waited < .seconds(5), "waited \(waited)")
  }

  /// The command's environment holds the URL to replace and the status; a command that
  /// runs too long is stopped (its background children with it) and named.
  @Test func theCommandGetsItsVariablesAndATimeout() {
    let echoed = RefreshCommand.freshURL(
      "printf 'https://127.0.0.1/%s\\n' \"$OFFLINE_STATUS\"",
      for: URL(string: "https://127.0.0.1/old")!, status: 403, host: Self.host)
    #expect((try? echoed.get())?.absoluteString == "https://127.0.0.1/403", "\(echoed)")
    let shell = ShellCommand(
      command: "sleep 30", environment: [:], baseEnvironment: Self.host.environment,
      workingDirectory: "/", timeout: 0.3)
    let started = ContinuousClock.now
    let run = try? shell.run().get()
    #expect(run?.ending == .timedOut)
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  /// Pins: output that is not a bare URL (a URL with words around it) was quoted as it was,
  /// its signature included; the query is never shown.
  @Test(arguments: [
    "fresh: https://127.0.0.1:9/big.bin?sig=s1gnature-s3cret",
    "https://127.0.0.1:9/a?sig=s1gnature-s3cret\nhttps://127.0.0.1:9/b?sig=s1gnature-s3cret",
    "ftp://127.0.0.1/big.bin?sig=s1gnature-s3cret",
    "s1gnature-s3cret",
    #"{"url": "https://127.0.0.1:9/big.bin?sig=s1gnature-s3cret"}"#,
  ])
  func outputThatIsNotOneURLIsNeverQuotedWithItsSecret(printed: String) {
    let quoted = "'" + printed.replacingOccurrences(of: "'", with: "'\\''") + "'"
    let answer = RefreshCommand.freshURL(
      "printf '%s\\n' \(quoted)", for: URL(string: "https://127.0.0.1/old")!, status: 410,
      host: Self.host)
    guard case .failure(let problem) = answer else {
      Issue.record("\(printed) was taken as a URL")
      return
    }
    #expect(problem.reason.contains("not an http or https URL"), "\(problem.reason)")
    #expect(!problem.reason.contains("s3cret"), "\(problem.reason)")
  }
}
