import Foundation
import OfflineHTTP
import OfflineKit
import OfflineLocks

/// `get --refresh-command CMD`: a shell command whose standard output is a fresh URL for a
/// download whose URL was answered 401, 403 or 410 (a signed URL that expired). It runs
/// with `/bin/sh -c`, with `OFFLINE_URL` (the URL to replace: the file's, or a stream's
/// playlist or manifest URL) and `OFFLINE_STATUS` in its environment, for at most
/// ``timeout`` seconds.
enum RefreshCommand {
  /// Why the command gave no URL, as a phrase.
  struct Problem: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// The longest the command may run.
  static let timeout: Double = 20

  /// The status of a refusal that a fresh URL may cure (401, 403 or 410:
  /// `URLRefresh.statuses`), or nil for any other failure.
  static func refusal(_ error: Transfer.Error) -> Int? {
    guard case .status(let status, _) = error.kind, URLRefresh.statuses.contains(status) else {
      return nil
    }
    return status
  }

  /// What `get` says when `url`, answered `status`, got no fresh URL (the query never
  /// shown): the content is suspended, its partial data kept.
  static func noFreshURL(_ url: URL, status: Int, _ problem: Problem) -> String {
    "\(url.redactedForDisplay) answered \(status) and no fresh URL came: \(problem.reason)."
      + " The partial data is kept; run the command again to resume."
  }

  /// The fresh URL the command printed, or why there is none (a phrase: the command failed,
  /// took too long, or printed something that is not one http or https URL).
  static func freshURL(_ command: String, for url: URL, status: Int) -> Result<URL, Problem> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    var environment = ProcessInfo.processInfo.environment
    environment["OFFLINE_URL"] = url.absoluteString
    environment["OFFLINE_STATUS"] = "\(status)"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    // What it printed, and whether its output ended (an empty read).
    let printed = Locked((Data(), false))
    output.fileHandleForReading.readabilityHandler = { handle in
      let chunk = handle.availableData
      printed.withLock { state in
        if chunk.isEmpty {
          state.1 = true
        } else if state.0.count < 64 << 10 {
          state.0.append(chunk)
        }
      }
    }
    defer { output.fileHandleForReading.readabilityHandler = nil }
    do {
      try process.run()
    } catch {
      return .failure(Problem("the refresh command could not start: \(error.localizedDescription)"))
    }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      process.terminate()
      return .failure(Problem("the refresh command ran longer than \(Int(timeout)) s"))
    }
    // The last of its output (bounded: a child left in the background may hold it open).
    let ended = Date().addingTimeInterval(1)
    while !printed.withLock({ $0.1 }) && Date() < ended { usleep(5_000) }
    guard process.terminationStatus == 0 else {
      return .failure(
        Problem("the refresh command exited with status \(process.terminationStatus)"))
    }
    let text = String(decoding: printed.withLock { $0.0 }, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.contains(where: \.isNewline), let fresh = URL(string: text), fresh.isHTTPWithHost
    else {
      let shown = URL(string: text)?.redactedForDisplay ?? String(text.prefix(80))
      return .failure(
        Problem(
          "the refresh command printed '\(TerminalText.escaped(String(shown.prefix(200))))', not an"
            + " http or https URL"))
    }
    return .success(fresh)
  }
}
