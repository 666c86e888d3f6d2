import Foundation
import OfflineHTTP
import OfflineKit

/// `get --refresh-command CMD`: a shell command whose standard output is a fresh URL for a
/// download whose URL was answered 401, 403 or 410 (a signed URL that expired). It runs
/// with `/bin/sh -c`, with `OFFLINE_URL` (the URL to replace: the file's, or a stream's
/// playlist or manifest URL) and `OFFLINE_STATUS` in its environment, for at most
/// ``timeout`` seconds.
enum RefreshCommand {
  /// Why the command gave no URL, as a phrase.
  typealias Problem = URLRefreshProblem

  /// The longest the command may run.
  static let timeout: Double = 20

  /// Fresh URLs one `get` asks the command for in a row without a byte arriving in between.
  static let freshURLsInARow = 5

  /// `command` as the library's URL-refresh hook: the refused URL and status go to it, its
  /// fresh URL comes back, and why it gave none is said in the command's terms.
  static func refresh(_ command: String, host: CommandHost) -> URLRefresh {
    // The command's own timeout answers first; the hook's is a backstop.
    URLRefresh(timeout: .seconds(timeout + 5), maximumInARow: freshURLsInARow) { request in
      try freshURL(command, for: request.url, status: request.status ?? 0, host: host).get()
    }
  }

  /// What `get` says when `url`, answered `status`, got no fresh URL (the query never
  /// shown): the content is suspended, its partial data kept.
  static func noFreshURL(_ url: URL, status: Int, _ reason: String) -> String {
    "\(url.redactedForDisplay) answered \(status) and no fresh URL came: \(reason)."
      + " The partial data is kept; run the command again to resume."
  }

  /// The fresh URL the command printed, or why there is none (a phrase: the command failed,
  /// took too long, or printed something that is not one http or https URL). The wait is
  /// for the command's own exit: a process it leaves in the background (`helper &`) may
  /// keep its output open, and is not waited for.
  /// The command runs in the host's working folder with the host's environment.
  static func freshURL(_ command: String, for url: URL, status: Int, host: CommandHost)
    -> Result<URL, Problem>
  {
    let shell = ShellCommand(
      command: command,
      environment: ["OFFLINE_URL": url.absoluteString, "OFFLINE_STATUS": "\(status)"],
      baseEnvironment: host.environment, workingDirectory: host.workingDirectory.path,
      timeout: timeout)
    let ending: ShellCommand.Ending
    let output: Data
    switch shell.run() {
    case .success(let run): (ending, output) = run
    case .failure(let error):
      return .failure(Problem("the refresh command could not start: \(error)"))
    }
    switch ending {
    case .exited(0): break
    case .exited(let code):
      return .failure(Problem("the refresh command exited with status \(code)"))
    case .signalled(let signal):
      return .failure(Problem("the refresh command was ended by signal \(signal)"))
    case .timedOut:
      return .failure(Problem("the refresh command ran longer than \(Int(timeout)) s"))
    }
    let text = String(decoding: output, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.contains(where: \.isNewline), let fresh = URL(string: text), fresh.isHTTPWithHost
    else {
      return .failure(
        Problem("the refresh command printed \(described(text)), not an http or https URL"))
    }
    return .success(fresh)
  }

  /// What the command printed, for a message, without what may be a secret: a URL without
  /// its query (`'ftp://host/file?…'`), anything else only by its size: the text may hold a
  /// signed URL, a token or a password.
  static func described(_ text: String) -> String {
    if text.isEmpty { return "nothing" }
    if !text.contains(where: { $0.isWhitespace }), let url = URL(string: text), url.scheme != nil,
      url.host() != nil
    {
      return "'\(TerminalText.escaped(String(url.redactedForDisplay.prefix(200))))'"
    }
    let lines = text.split(whereSeparator: \.isNewline).count
    return "\(text.utf8.count) bytes on \(lines) line\(lines == 1 ? "" : "s") (not shown)"
  }
}
