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
      retry: retryPolicy, requestOptions: command.requestOptions)
    download.onPieceRetry = { [command] retry in Self.show(retry, command: command) }
    download.waitsForOtherWriter = command.waitsForOtherWriter
    if download.isComplete {
      reporter.finishedStream(download.indexURL, alreadyComplete: true)
      return ExitCode.success
    }
    let ready = download
    return await report { progress throws(Transfer.Error) in
      try await ready.run(onProgress: progress)
    }
  }
}
