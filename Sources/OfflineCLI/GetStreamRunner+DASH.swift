import Foundation
import OfflineHTTP
import OfflineKit

extension GetStreamRunner {
  /// `offline get` of a DASH manifest: the presentation into a folder with `index.mpd`, with
  /// the same retries, progress, warnings and output as an HLS stream.
  func runDASH() async -> Int32 {
    var download = DASHDownload(
      url: command.url, folder: folder, options: command.hls, journal: index.transfers,
      transport: transport,
      retry: RetryPolicy(
        maximumAttempts: command.retries, initialDelay: .milliseconds(500),
        maximumDelay: .seconds(30)),
      requestOptions: command.requestOptions)
    download.onPieceRetry = { [command] retry in Self.show(retry, command: command) }
    download.waitsForOtherWriter = command.waitsForOtherWriter
    if download.isComplete {
      reporter.finishedStream(download.indexURL, alreadyComplete: true)
      return ExitCode.success
    }
    do {
      let outcome = try await download.run { reporter.reportStream($0) }
      reporter.finishedStream(outcome.index, alreadyComplete: false, outcome: outcome)
      warn(outcome.warnings)
      return ExitCode.success
    } catch {
      if command.json { return reporter.ended(with: error) }
      if case .cancelled = error.kind { return reporter.ended(with: error) }
      reporter.failed(TerminalText.message(error.description))
      return ExitCode.failure
    }
  }
}
