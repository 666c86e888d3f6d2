import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// A DASH presentation: a ``DASHDownload`` into the content's folder, which retries each
  /// piece itself before failing, exactly as an HLS stream does.
  func dashWork(_ record: ContentRecord, url: URL, options: DownloadConfiguration.Stored) -> Work {
    let files = self.files
    var download = DASHDownload(
      url: url, folder: files.folder(id: record.id),
      configuration: options.hls.cappingConnections(at: configuration.maxStreamConnections),
      journal: index.transfers,
      transport: transport,
      retry: Self.pieceRetry,
      requestOptions: requestOptions[record.id] ?? RequestOptions(), rateLimiters: [rateLimiter])
    download.refreshesURL = configuration.urlRefresh != nil  // 401, 403, 410: the hook first
    let ready = download
    return Self.streamWork(record, files: files) { report throws(Transfer.Error) in
      try await ready.run(onProgress: report)
    }
  }
}
