import Foundation
import OfflineHTTP
import OfflineKit
import OfflineLocks
import OfflineStore

/// `offline get` of an HLS playlist (or a DASH manifest, see `dashDownload(_:)`): the stream
/// into a folder with an offline playlist.
///
/// With `--refresh-command`, a playlist, segment, key or init section answered 401, 403 or
/// 410 ends the attempt at once (not tried again with backoff); the command's fresh URL is
/// read again and the pieces already on disk are kept (`HLSDownload.refreshesURL`), at most
/// `GetCommand.maximumRefreshes` times, as for a file.
struct GetStreamRunner {
  let command: GetCommand
  let index: OfflineIndex
  let transport: any HTTPTransporting
  let reporter: GetReporter
  /// The run's surroundings: the working folder, the console, the environment.
  let host: CommandHost

  /// The folder: `-o` as given, else the stream's name in the current folder (always from
  /// the URL given, whatever fresh URL follows).
  var folder: URL {
    let current = host.workingDirectory.path
    guard let output = command.output else {
      let name =
        isDASH
        ? DASHDownload.folderName(for: command.url) : HLSDownload.folderName(for: command.url)
      return URL(fileURLWithPath: current).appending(path: name)
    }
    return URL(fileURLWithPath: output.hasPrefix("/") ? output : current + "/" + output)
      .standardizedFileURL
  }

  /// Whether the URL given names a DASH manifest (else an HLS playlist); a fresh URL is
  /// taken as the same kind.
  var isDASH: Bool { DASHDownload.isManifestURL(command.url) }

  /// How often a request of the stream is tried: `--retries`, backing off from 0.5 s to 30 s.
  var retryPolicy: RetryPolicy {
    RetryPolicy(
      maximumAttempts: command.retries, initialDelay: .milliseconds(500),
      maximumDelay: .seconds(30))
  }

  func run() async -> Int32 {
    if let code = alreadyComplete() { return code }
    var url = command.url
    var refreshes = 0
    while true {
      let result = await attempt(url)
      switch result {
      case .success(let outcome):
        reporter.finishedStream(outcome.index, alreadyComplete: false, outcome: outcome)
        warn(outcome.warnings)
        return ExitCode.success
      case .failure(let error):
        guard let refreshCommand = command.refreshCommand,
          refreshes < GetCommand.maximumRefreshes, let status = RefreshCommand.refusal(error)
        else { return ended(with: error) }
        refreshes += 1
        switch RefreshCommand.freshURL(refreshCommand, for: url, status: status, host: host) {
        case .success(let fresh):
          // Read again from the fresh URL; pieces on disk go on under their new URLs.
          url = fresh
        case .failure(let problem):
          reporter.failed(RefreshCommand.noFreshURL(error.url, status: status, problem))
          return ExitCode.failure
        }
      }
    }
  }

  /// The exit code of a stream an earlier run finished, or nil when there is work to do.
  private func alreadyComplete() -> Int32? {
    if isDASH {
      let download = dashDownload(command.url)
      guard download.isComplete else { return nil }
      reporter.finishedStream(download.indexURL, alreadyComplete: true)
      return ExitCode.success
    }
    let download = hlsDownload(command.url)
    guard download.isComplete else { return nil }
    do {
      try download.upgradeOfflineFiles()  // keys named by an older version
    } catch {
      return reporter.ended(with: error)
    }
    reporter.finishedStream(download.indexURL(), alreadyComplete: true)
    return ExitCode.success
  }

  /// One download of the stream from `url`, its progress reported.
  private func attempt(_ url: URL) async -> Result<StreamOutcome, Transfer.Error> {
    let reporter = self.reporter
    let progress: @Sendable (OfflineProgress) -> Void = { reporter.reportStream($0) }
    do throws(Transfer.Error) {
      if isDASH { return .success(try await dashDownload(url).run(onProgress: progress)) }
      return .success(try await hlsDownload(url).run(onProgress: progress))
    } catch {
      return .failure(error)
    }
  }

  /// Reports a failed stream; returns the exit code.
  private func ended(with error: Transfer.Error) -> Int32 {
    if command.json { return reporter.ended(with: error) }
    if case .canceled = error.kind { return reporter.ended(with: error) }
    // Server text and URLs (a playlist may name a 15 MB URI) made readable.
    reporter.failed(TerminalText.message(error.description))
    return ExitCode.failure
  }
  /// Says that a piece is tried again: a line on standard error (the progress line cleared
  /// first on a terminal), or with `--json` a `retrying` event on standard output.
  static func show(_ retry: PieceRetryPolicy.Retry, command: GetCommand, console: Console) {
    if command.json {
      let object: [String: Any] = [
        "event": "retrying", "url": retry.url.redactedForDisplay, "retry": retry.retry,
        "retries": retry.retries,
        "delaySeconds": JSONLine.milliseconds(retry.delay.inSeconds),
        "message": retry.error.description,
      ]
      if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
        let line = String(data: data, encoding: .utf8)
      {
        console.out(line)
      }
    } else if !command.quiet {
      if console.stderrIsTerminal { console.errRaw("\r\u{1B}[K") }
      console.err(
        TerminalText.message(retry.error.description) + " Trying again in "
          + GetReporter.seconds(retry.delay) + " (retry \(retry.retry) of \(retry.retries)).")
    }
  }

  /// Shows what could not be included: a `Warning:` line each on standard error, or with
  /// `--json` a `warning` event each on standard output.
  func warn(_ warnings: [StreamWarning]) {
    let console = host.console
    for warning in warnings {
      if command.json {
        let object = ["event": "warning", "message": warning.description]
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
          let line = String(data: data, encoding: .utf8)
        {
          console.out(line)
        }
      } else if !command.quiet {
        console.err("Warning: " + TerminalText.message(warning.description) + ".")
      }
    }
  }
}
