import Foundation
import OfflineStore
import TestSupport
import Testing

@testable import OfflineKit

/// Downloaded contents to damage: a file or a stream through a manager, and what to do to
/// their files (issue 15's tests).
enum VerifyFixture {
  /// Downloads `url` as content `id` in `fixture`'s store, to the end.
  static func download(
    _ url: URL, id: String, in fixture: ManagerFixture,
    configuration: DownloadConfiguration = DownloadConfiguration()
  ) async throws -> OfflineContent {
    let content = try await fixture.manager.content(for: OfflineSource(url: url, id: id))
    try await content.download(configuration)
    #expect(try await runUntilIdle(fixture.manager, timeout: .seconds(120)))
    try #require(try await content.state == .downloaded)
    return content
  }

  /// A stream downloaded with a file for each segment (small segments share a pack by
  /// default), for tests that damage one segment.
  static var segmentFiles: DownloadConfiguration {
    DownloadConfiguration(stream: StreamConfiguration(packsSmallSegments: false))
  }

  /// The pieces content `id` recorded, of `kind`.
  static func pieces(_ id: String, _ kind: PieceRecord.Kind, in fixture: ManagerFixture) throws
    -> [PieceRecord]
  {
    try fixture.manager.index.pieces.pieces(ofContent: id).filter { $0.kind == kind }
  }
}
