import Foundation
import OfflineHTTP
import OfflineKit
import OfflineStore

/// `offline get` of an HLS playlist (or a DASH manifest, see `runDASH()`): the stream into a
/// folder with an offline playlist.
struct GetStreamRunner {
  let command: GetCommand
  let index: OfflineIndex
  let transport: any HTTPTransporting
  let reporter: GetReporter

  /// The folder: `-o` as given, else the stream's name in the current folder.
  var folder: URL {
    let current = FileManager.default.currentDirectoryPath
    guard let output = command.output else {
      let name =
        DASHDownload.isManifestURL(command.url)
        ? DASHDownload.folderName(for: command.url) : HLSDownload.folderName(for: command.url)
      return URL(fileURLWithPath: current).appending(path: name)
    }
    return URL(fileURLWithPath: output.hasPrefix("/") ? output : current + "/" + output)
      .standardizedFileURL
  }

  /// How often a request of the stream is tried: `--retries`, backing off from 0.5 s to 30 s.
  var retryPolicy: RetryPolicy {
    RetryPolicy(
      maximumAttempts: command.retries, initialDelay: .milliseconds(500),
      maximumDelay: .seconds(30))
  }

  func run() async -> Int32 {
    if DASHDownload.isManifestURL(command.url) { return await runDASH() }
    var download = HLSDownload(
      url: command.url, folder: folder, options: command.hls, journal: index.transfers,
      transport: transport,
      retry: retryPolicy, requestOptions: command.requestOptions)
    download.onPieceRetry = { [command] retry in Self.show(retry, command: command) }
    download.waitsForOtherWriter = command.waitsForOtherWriter
    if download.isComplete {
      do {
        try download.upgradeOfflineFiles()  // keys named by an older version
      } catch {
        return reporter.ended(with: error)
      }
      reporter.finishedStream(download.indexURL(), alreadyComplete: true)
      return ExitCode.success
    }
    return await report { progress throws(Transfer.Error) in
      try await download.run(onProgress: progress)
    }
  }

  /// Runs a stream's download (HLS or DASH), reporting its progress, its end and its
  /// warnings; returns the exit code.
  func report(
    _ run: (@escaping @Sendable (OfflineProgress) -> Void) async throws(Transfer.Error)
      -> HLSDownload.Outcome
  ) async -> Int32 {
    let reporter = self.reporter
    do throws(Transfer.Error) {
      let outcome = try await run { reporter.reportStream($0) }
      reporter.finishedStream(outcome.index, alreadyComplete: false, outcome: outcome)
      warn(outcome.warnings)
      return ExitCode.success
    } catch {
      if command.json { return reporter.ended(with: error) }
      if case .cancelled = error.kind { return reporter.ended(with: error) }
      // Server text and URLs (a playlist may name a 15 MB URI) made readable.
      reporter.failed(TerminalText.message(error.description))
      return ExitCode.failure
    }
  }

  /// Says that a piece is tried again: a line on standard error (the progress line cleared
  /// first on a terminal), or with `--json` a `retrying` event on standard output.
  static func show(_ retry: HLSDownload.PieceRetry, command: GetCommand) {
    let console = Console()
    if command.json {
      let (seconds, attoseconds) = retry.delay.components
      let object: [String: Any] = [
        "event": "retrying", "url": retry.url.redactedForDisplay, "retry": retry.retry,
        "retries": retry.retries,
        "delaySeconds": JSONLine.milliseconds(Double(seconds) + Double(attoseconds) / 1e18),
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
  func warn(_ warnings: [HLSWarning]) {
    let console = Console()
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
