import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// A DASH presentation: a ``DASHDownload`` into the content's folder, which retries each
  /// piece itself before failing, exactly as an HLS stream does.
  func dashWork(_ record: ContentRecord, url: URL, options: DownloadConfig.Stored) -> Work {
    let files = self.files
    let download = DASHDownload(
      url: url, folder: files.folder(id: record.id),
      options: options.hls, journal: index.transfers,
      transport: transport,
      retry: RetryPolicy(
        maximumAttempts: 3, initialDelay: .milliseconds(500), maximumDelay: .seconds(5)),
      requestOptions: requestOptions[record.id] ?? RequestOptions(), rateLimiters: [rateLimiter])
    return { report in
      do throws(Transfer.Error) {
        let outcome = try await download.run(onProgress: report)
        // Pieces are on disk after one syncfs; the manifest's folder fsync makes the
        // offline MPD's rename durable before it says downloaded.
        files.recordDownloaded(record, length: outcome.bytes, sha256: nil)
        return .success(
          Transfer.Outcome(
            destination: outcome.index.path, length: outcome.bytes, sha256: nil,
            wasAlreadyComplete: false, bytesReceived: outcome.bytes, check: .length))
      } catch {
        return .failure(error)
      }
    }
  }
}
