import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A stream's pack (``PiecePack``) as a later run finds it, through real downloads from nginx.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct StreamPackTests {
  /// A complete stream downloaded again in another boot trusts none of its packed pieces
  /// (they were synced only at the end of the run, as files of pieces are), so its first
  /// write cuts the pack, which the old `index.m3u8` addresses. The offline playlists go
  /// before anything is written: a run that then fails leaves no playlist pointing into a
  /// pack being rewritten, and the next run writes them again.
  @Test func aPackAboutToBeCutTakesTheOfflinePlaylistsWithIt() async throws {
    let origin = try await HLSOrigin(.manySegments, segmentCount: 6)
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let folder = store.url.appending(path: "content")
    func download() -> HLSDownload {
      HLSDownload(
        url: origin.url, folder: folder,
        configuration: StreamConfiguration(pieceRetries: 0), journal: index.transfers,
        transport: CurlTransport(), retry: RetryPolicy(maximumAttempts: 1))
    }
    _ = try await download().run()
    let playlist = folder.appending(path: "index.m3u8")
    try #require(FileManager.default.fileExists(atPath: playlist.path))
    try #require(FileManager.default.fileExists(atPath: folder.appending(path: "pack.ts").path))
    let earlier = try index.transfers.records(under: folder.path).values.map { record in
      var fromAnotherBoot = record
      fromAnotherBoot.bootID = "an-earlier-boot"
      return fromAnotherBoot
    }
    try index.transfers.save(Array(earlier))

    // The origin still serves the playlist, but its segments are gone: the run fails.
    let segments = try FileManager.default.contentsOfDirectory(atPath: origin.files.folder.path)
      .filter { $0.hasSuffix(".ts") }
    let hidden = try TemporaryDirectory()
    for name in segments {
      try FileManager.default.moveItem(
        at: origin.files.folder.appending(path: name), to: hidden.url.appending(path: name))
    }
    await #expect(throws: Transfer.Error.self) { _ = try await download().run() }
    #expect(!FileManager.default.fileExists(atPath: playlist.path))

    for name in segments {
      try FileManager.default.moveItem(
        at: hidden.url.appending(path: name), to: origin.files.folder.appending(path: name))
    }
    _ = try await download().run()
    origin.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(playlist.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - origin.files.duration) < 0.6)
  }
}
