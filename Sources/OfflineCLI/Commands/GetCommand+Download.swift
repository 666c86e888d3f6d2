import Foundation
import OfflineHTTP
import OfflineKit

extension GetCommand {
  /// Runs `download` (a file, or a stream into a folder) through the library's one path,
  /// with `--refresh-command` as its URL-refresh hook, and renders what happens; returns
  /// the exit code. A stream an earlier run finished is said so and not fetched again. A
  /// file whose answer is or names a Metalink ends with `describedByMetalink`: then
  /// `followingMetalink` runs the download it describes, and its exit code is returned.
  func run(
    _ download: ContentDownload, reporter: GetReporter, host: CommandHost,
    followingMetalink: (URL) async -> Int32 = { _ in ExitCode.failure }
  ) async -> Int32 {
    let isStream = download.kind.isStream
    do {
      if let index = try download.finishedEarlier() {
        reporter.finishedStream(index, alreadyComplete: true)
        return ExitCode.success
      }
    } catch {
      return reporter.ended(with: error)
    }
    let command = self
    let console = host.console
    let refresh = refreshCommand.map { RefreshCommand.refresh($0, host: host) }
    do throws(ContentDownload.Failure) {
      let outcome = try await download.run(refreshing: refresh, contentID: "get") { event in
        switch event {
        case .progress(let progress):
          if isStream {
            reporter.reportStream(progress)
          } else {
            reporter.report(.progress(progress))
          }
        case .restarted(let reason): reporter.report(.restarted(reason))
        case .detail(let detail): reporter.report(detail)
        case .pieceRetry(let retry): Self.show(retry, command: command, console: console)
        case .recordingLive(let playlist): reporter.recordingLive(playlist)
        }
      }
      switch outcome {
      case .file(let outcome):
        reporter.finished(outcome)
      case .stream(let outcome):
        reporter.finishedStream(outcome.index, alreadyComplete: false, outcome: outcome)
        warn(outcome.warnings, console: console)
      }
      return ExitCode.success
    } catch {
      switch error {
      case .transfer(let error):
        if case .describedByMetalink(let document) = error.kind {
          return await followingMetalink(document)
        }
        return isStream ? endedStream(with: error, reporter: reporter) : reporter.ended(with: error)
      case .noFreshURL(let url, let status, let reason):
        reporter.failed(RefreshCommand.noFreshURL(url, status: status, reason))
        return ExitCode.failure
      }
    }
  }

  /// The folder a stream goes to: `-o` as given, else the stream's name in the current
  /// folder (always from the URL given, whatever fresh URL follows).
  func streamFolder(currentFolder: String) -> String {
    guard let output else {
      let name =
        DASHDownload.isManifestURL(url)
        ? DASHDownload.folderName(for: url) : HLSDownload.folderName(for: url)
      return URL(fileURLWithPath: currentFolder).appending(path: name).path
    }
    return URL(fileURLWithPath: output.hasPrefix("/") ? output : currentFolder + "/" + output)
      .standardizedFileURL.path
  }

  /// Reports a failed stream; returns the exit code.
  private func endedStream(with error: Transfer.Error, reporter: GetReporter) -> Int32 {
    if json { return reporter.ended(with: error) }
    if case .canceled = error.kind { return reporter.ended(with: error) }
    // Server text and URLs (a playlist may name a 15 MB URI) made readable.
    reporter.failed(TerminalText.message(error.description))
    return ExitCode.failure
  }

  /// Says that a piece is tried again: a line on standard error (the progress line cleared
  /// first on a terminal), or with `--json` a `retrying` event on standard output.
  static func show(_ retry: PieceRetryPolicy.Retry, command: GetCommand, console: Console) {
    if command.json {
      console.out(
        JSONLine.object([
          "event": "retrying", "url": retry.url.redactedForDisplay, "retry": retry.retry,
          "retries": retry.retries,
          "delaySeconds": JSONLine.milliseconds(retry.delay.inSeconds),
          "message": retry.error.description,
        ]))
    } else if !command.quiet {
      if console.stderrIsTerminal { console.errRaw("\r\u{1B}[K") }
      console.err(
        TerminalText.message(retry.error.description) + " Trying again in "
          + GetReporter.seconds(retry.delay) + " (retry \(retry.retry) of \(retry.retries)).")
    }
  }

  /// Shows what could not be included: a `Warning:` line each on standard error, or with
  /// `--json` a `warning` event each on standard output.
  func warn(_ warnings: [StreamWarning], console: Console) {
    for warning in warnings {
      if json {
        console.out(JSONLine.object(["event": "warning", "message": warning.description]))
      } else if !quiet {
        console.err("Warning: " + TerminalText.message(warning.description) + ".")
      }
    }
  }
}
