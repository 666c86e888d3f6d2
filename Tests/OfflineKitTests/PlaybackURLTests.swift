import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// What a player opens, through the one door (issue 37, item 2): `playbackURL` returns the
/// checked local URL or throws why there is none. Before, `offlineSource` was nil until the
/// content was downloaded, beside `offlineSource(restrictedToAssetCache:)` and a snapshot's
/// `fileURL` that named a file whether it was there or not.
@Suite(.enabled(if: FFmpeg.isAvailable), .timed) struct PlaybackURLTests {
  /// A master playlist of three variants, its lowest downloaded through the manager.
  @Test func aDownloadedStreamGivesTheCopyOrTheCopyWithTheRestOnline() async throws {
    let origin = try await HLSOrigin(.tsVariants)
    defer { origin.nginx.stop() }
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(for: OfflineSource(url: origin.url))
    var configuration = DownloadConfiguration()
    configuration.stream = StreamConfiguration(variant: .lowest)
    try await content.download(configuration)

    await #expect {
      try await content.playbackURL()
    } throws: { error in
      let error = error as? OfflineError
      return error?.code == .notPlayable && error?.state == .downloading
    }

    try await fixture.manager.start()
    let file = try await content.waitUntilDownloaded()
    let restricted = try await content.playbackURL()
    let withRemote = try await content.playbackURL(restrictedToAssetCache: false)
    await fixture.manager.close()

    #expect(file == restricted)
    #expect(restricted.lastPathComponent == "index.m3u8")
    #expect(
      withRemote == restricted.deletingLastPathComponent().appending(path: "index-remote.m3u8"))
    let variants = { (url: URL) in
      try String(contentsOf: url, encoding: .utf8).components(separatedBy: "#EXT-X-STREAM-INF")
        .count - 1
    }
    #expect(try variants(restricted) == 1, "only the variant on disk")
    #expect(try variants(withRemote) == 3, "the others at their remote URLs")
    let decoded = try await FFmpeg.decode(restricted.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }
}
