import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// `index.sqlite` as a symbolic link (issue 36, item 13).
@Suite(.timed) struct IndexLinkTests {
  /// Pins issue 36, item 13: the store made its database where the link pointed, outside the
  /// store (a dangling link) or turned the file there into one (an empty file). Now the link
  /// itself is moved aside as a damaged index is, and a fresh index made in the store.
  @Test(arguments: ["dangling", "empty file"])
  func anIndexThatIsALinkIsMovedAsideAndNothingIsMadeWhereItPoints(_ target: String) async throws {
    let store = try TemporaryDirectory()
    let outside = try TemporaryDirectory()
    let pointed = outside.url.appending(path: "elsewhere.sqlite")
    if target == "empty file" { try Data().write(to: pointed) }
    let link = store.url.appending(path: OfflineIndex.fileName)
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: pointed)

    let refused = #expect(throws: StoreError.self) { try OfflineIndex(directory: store.url) }
    #expect(
      refused?.description.contains("is a symbolic link") == true, "\(String(describing: refused))")

    let manager = try OfflineManager(directory: store.url)
    _ = try await manager.content(for: OfflineSource(url: URL(string: "http://127.0.0.1:9/a")!))

    let moved = try #require(manager.quarantinedIndex)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: moved.path) == pointed.path)
    var info = stat()
    #expect(lstat(link.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    let there = try FileManager.default.contentsOfDirectory(atPath: outside.url.path)
    #expect(there == (target == "empty file" ? ["elsewhere.sqlite"] : []), "\(there)")
    #expect(FileSteps.regularFileSize(pointed.path) == (target == "empty file" ? 0 : nil))
  }
}
