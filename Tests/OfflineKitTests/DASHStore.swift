import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport

@testable import OfflineKit

/// A temporary store and a content folder for one download.
struct DASHStore {
  let root: TemporaryDirectory
  let index: OfflineIndex
  var folder: URL { root.url.appending(path: "content") }

  init() throws {
    root = try TemporaryDirectory(prefix: "offlinekit-dash-store")
    index = try OfflineIndex(directory: root.url.appending(path: "store"))
  }

  func download(_ url: URL, options: StreamConfiguration = StreamConfiguration()) -> DASHDownload {
    DASHDownload(
      url: url, folder: folder, configuration: options, journal: index.transfers,
      transport: CurlTransport(),
      retry: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(50)))
  }
}
