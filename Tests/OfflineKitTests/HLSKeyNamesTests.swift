import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Offline encrypted streams play in stock players (issue 11, item 6): ffmpeg 5.1's HLS
/// demuxer, and so mpv, opens a local key only when its name ends in a media extension, and
/// the previous version stored keys as `keys/k0.key`. Keys are now `keys/k0.key.ts`, mode
/// 0600, and folders in the old layout are upgraded.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct HLSKeyNamesTests {
  /// Pins issue 11, item 6: the offline playlist named `keys/k0.key`, which stock ffmpeg
  /// refuses ("not a common multimedia extension, blocked for security reasons").
  @Test func keysHaveNamesStockFFmpegOpensAndStayPrivate() async throws {
    let result = try await HLSDownloadTests().download(.aes128Rotating)
    let folder = result.outcome.index.deletingLastPathComponent()
    let names = try FileManager.default.contentsOfDirectory(
      atPath: folder.appending(path: "keys").path)
    #expect(names.count == result.fixture.keys.count)
    #expect(names.allSatisfy { $0.hasSuffix(".key.ts") }, "\(names)")
    try expectPrivateKeys(in: folder, count: result.fixture.keys.count)
    let decoded = try await FFmpeg.decode(result.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }

  /// Pins issue 11, item 6: a folder the previous version wrote (keys at `keys/k0.key`) is
  /// upgraded by `renew-keys`: the keys are renewed under the new names and it plays in
  /// stock ffmpeg.
  @Test func aFolderOfThePreviousVersionIsUpgradedByRenewingItsKeys() async throws {
    let result = try await HLSDownloadTests().download(.aes128Rotating)
    let folder = result.outcome.index.deletingLastPathComponent()
    try HLSLegacyFolder.downgrade(folder)
    let before = try await FFmpeg.decode(result.outcome.index.path)
    #expect(before.errors.contains("blocked"), "the old layout is what stock ffmpeg refuses")

    try result.nginx.start()
    defer { result.nginx.stop(graceful: false) }
    let scratch = try TemporaryDirectory()
    let index = try OfflineIndex(directory: scratch.url)
    let download = HLSDownload(
      url: result.fixture.url(on: result.nginx), folder: folder, journal: index.transfers,
      transport: CurlTransport())
    #expect(try await download.renewKeys() == result.fixture.keys.count)
    result.nginx.stop(graceful: false)

    try expectPrivateKeys(in: folder, count: result.fixture.keys.count)
    let after = try await FFmpeg.decode(result.outcome.index.path)
    #expect(after.errors.isEmpty, "\(after.errors)")
    #expect(abs(after.duration - result.fixture.duration) < 0.6)
  }

  /// Pins issue 11, item 6: opening such a folder again upgrades it without the network,
  /// also when an earlier upgrade stopped after writing one new key file.
  @Test func aFolderOfThePreviousVersionIsUpgradedOfflineAndAStoppedUpgradeFinishes()
    async throws
  {
    let result = try await HLSDownloadTests().download(.aes128Rotating)
    let folder = result.outcome.index.deletingLastPathComponent()
    try HLSLegacyFolder.downgrade(folder)
    let keys = folder.appending(path: "keys")
    try FileManager.default.copyItem(
      at: keys.appending(path: "k0.key"), to: keys.appending(path: "k0.key.ts"))

    let scratch = try TemporaryDirectory()
    let index = try OfflineIndex(directory: scratch.url)
    let download = HLSDownload(
      url: result.fixture.url(on: result.nginx), folder: folder, journal: index.transfers,
      transport: CurlTransport())
    #expect(try download.upgradeOfflineFiles())
    #expect(try !download.upgradeOfflineFiles(), "nothing is left to do")
    #expect(download.isComplete)
    try expectPrivateKeys(in: folder, count: result.fixture.keys.count)
    let manifest = try HLSManifest.read(in: folder, url: download.url)
    #expect(manifest.keys.allSatisfy { $0.local.hasSuffix(".key.ts") }, "\(manifest.keys)")
    let decoded = try await FFmpeg.decode(result.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }

  /// The key files in `folder/keys`: `count` of them, all `.key.ts`, 16 bytes, mode 0600,
  /// and no file of the old layout left.
  private func expectPrivateKeys(in folder: URL, count: Int) throws {
    let keys = folder.appending(path: "keys")
    let names = try FileManager.default.contentsOfDirectory(atPath: keys.path)
    #expect(names.sorted() == (0..<count).map { "k\($0).key.ts" }.sorted(), "\(names)")
    for name in names {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: keys.appending(path: name).path)
      #expect((attributes[.posixPermissions] as? Int) == 0o600)
      #expect((attributes[.size] as? Int) == 16)
    }
  }
}
