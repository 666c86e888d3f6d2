import Foundation
import OfflineHTTP
import OfflineKit
import OfflineStore

extension GetStreamRunner {
  /// The HLS download of the playlist at `url` into ``folder``.
  func hlsDownload(_ url: URL) -> HLSDownload { streamDownload(url) }

  /// The download of the DASH manifest at `url` into ``folder``: the presentation into a
  /// folder with `index.mpd`, with the same retries, refreshes, progress, warnings and
  /// output as an HLS stream.
  func dashDownload(_ url: URL) -> DASHDownload { streamDownload(url) }

  /// A download of the stream at `url` into ``folder`` with the command's options, retries,
  /// retry reports, writer wait and refresh setting.
  private func streamDownload<Download: StreamDownloading>(_ url: URL) -> Download {
    var download = Download(
      url: url, folder: folder, configuration: command.hls, journal: index.transfers,
      transport: transport, retry: retryPolicy, requestOptions: command.requestOptions)
    download.onPieceRetry = { [command, console = host.console] retry in
      Self.show(retry, command: command, console: console)
    }
    download.waitsForOtherWriter = command.waitsForOtherWriter
    download.refreshesURL = command.refreshCommand != nil
    return download
  }
}
