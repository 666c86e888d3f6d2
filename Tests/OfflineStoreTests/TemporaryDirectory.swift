import Foundation

/// A fresh directory under the system's temporary directory, removed when released.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appending(path: "OfflineStoreTests-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The path of `name` inside the directory.
  func path(_ name: String) -> String {
    url.appending(path: name).path(percentEncoded: false)
  }
}
