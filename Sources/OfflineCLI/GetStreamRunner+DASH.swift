import Foundation
import OfflineHTTP
import OfflineKit

extension GetStreamRunner {
  /// The download of the DASH manifest at `url` into ``folder``: the presentation into a
  /// folder with `index.mpd`, with the same retries, refreshes, progress, warnings and
  /// output as an HLS stream.
  func dashDownload(_ url: URL) -> DASHDownload {
    var download = DASHDownload(
      url: url, folder: folder, options: command.hls, journal: index.transfers,
      transport: transport,
      retry: retryPolicy, requestOptions: command.requestOptions)
    download.onPieceRetry = { [command] retry in Self.show(retry, command: command) }
    download.waitsForOtherWriter = command.waitsForOtherWriter
    download.refreshesURL = command.refreshCommand != nil
    return download
  }
}
