import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 15, items 4 and 5: a repair fetches only what is wrong (the damaged 4 MiB chunks of
/// a file with Range and If-Range, the damaged pieces of a stream), refuses to mix versions
/// when the origin changed, changes nothing when the origin is unreachable, and
/// `checkRemote` tells whether the origin changed without downloading. Before, the only way
/// back from any damage was deleting and downloading everything again.
@Suite(.serialized, .timed)
struct ContentRepairTests {
  /// The requests nginx logged after the first `skipping`.
  static func requests(_ nginx: NginxServer, after skipping: Int) async throws -> [AccessLogEntry] {
    Array(try await nginx.accessLog(minimumCount: skipping).dropFirst(skipping))
  }

  /// A stream of `segments` small segments downloaded into a pack (the default): its origin,
  /// fixture, content, offline playlist and the bytes each segment had after the download.
  static func packedStream(segments: Int) async throws -> (
    origin: HLSOrigin, fixture: ManagerFixture, content: OfflineContent, index: URL,
    originals: [Data]
  ) {
    let origin = try await HLSOrigin(.manySegments, segmentCount: segments)
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url, id: "p", in: fixture)
    let index = fixture.contentFolder("p").appending(path: "index.m3u8")
    return (origin, fixture, content, index, try OfflineSegments.bytes(index))
  }

  @Test func aRepairFetchesOnlyTheChunkOfAByteFlippedInA64MiBFile() async throws {
    let origin = try ManagerOrigin(files: ["big.bin": 64 << 20])
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url("big.bin"), id: "big", in: fixture)
    let path = fixture.file("big.bin", of: "big").path
    try FileDamage.flipByte(at: 33 << 20 + 5, of: path)
    try FileDamage.flipByte(at: 60 << 20, of: path)
    let before = try origin.nginx.accessLog().count
    let report = try await content.repair()
    #expect(report.outcome == .repaired)
    #expect(report.chunksFetched == 2)
    #expect(FileManager.default.contents(atPath: path) == origin.body("big.bin"))
    let gets = try await Self.requests(origin.nginx, after: before).filter { $0.method == "GET" }
    #expect(gets.map(\.range) == ["bytes=33554432-37748735", "bytes=62914560-67108863"])
    #expect(gets.allSatisfy { $0.ifRange != nil && $0.status == 206 })
    #expect(gets.reduce(0) { $0 + $1.bodyBytesSent } <= 2 * (4 << 20))
    #expect(try await content.verify().isWhole)
    #expect(try await content.snapshot.damage == nil)
  }

  @Test func aRepairOfATruncatedFileFetchesOnlyWhatIsMissingPlusOneChunk() async throws {
    let size = 10 << 20 + 17
    let origin = try ManagerOrigin(files: ["a.bin": size])
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url("a.bin"), id: "a", in: fixture)
    let path = fixture.file("a.bin", of: "a").path
    let kept: Int64 = 5 << 20 + 3
    try #require(truncate(path, off_t(kept)) == 0)
    let before = try origin.nginx.accessLog().count
    try await content.repair()
    #expect(FileManager.default.contents(atPath: path) == origin.body("a.bin"))
    let fetched = try await Self.requests(origin.nginx, after: before).reduce(0) {
      $0 + $1.bodyBytesSent
    }
    #expect(fetched <= Int64(size) - kept + (4 << 20), "\(fetched)")
  }

  @Test func aRepairOfAStreamFetchesOnlyTheDeletedAndTheDamagedSegment() async throws {
    let origin = try await HLSOrigin(.aes128Rotating, segmentCount: 6)
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(
      origin.url, id: "s", in: fixture, configuration: VerifyFixture.segmentFiles)
    let folder = fixture.contentFolder("s")
    let segments = try VerifyFixture.pieces("s", .segment, in: fixture)
    let key = try #require(try VerifyFixture.pieces("s", .key, in: fixture).last)
    let before = try origin.nginx.accessLog().count
    let originals = try segments.map { try Data(contentsOf: folder.appending(path: $0.path)) }
    try FileManager.default.removeItem(at: folder.appending(path: segments[1].path))
    try FileDamage.flipByte(at: 10, of: folder.appending(path: segments[4].path).path)
    try FileManager.default.removeItem(at: folder.appending(path: key.path))
    try "#EXTM3U\n".write(
      to: folder.appending(path: "index.m3u8"), atomically: true, encoding: .utf8)
    let report = try await content.repair()
    #expect(report.piecesFetched == 3)
    #expect(try await content.verify().isWhole)
    let now = try segments.map { try Data(contentsOf: folder.appending(path: $0.path)) }
    #expect(now == originals, "byte-identical")
    let media = try await Self.requests(origin.nginx, after: before).filter {
      $0.method == "GET" && !$0.uri.hasSuffix(".m3u8")
    }
    #expect(media.count == 3, "\(media.map(\.uri))")
    #expect(
      try await FFmpeg.decode(try await content.playbackURL().path).errors.isEmpty)
  }

  /// A pack holds every small segment of a playlist. Pins the repair of one (issue 14's
  /// packs): a byte flipped in it made a repair fetch every segment of the pack again (a
  /// thousand for a long VOD), though each one's SHA-256 is in the journal. Now only the
  /// segments whose bytes are wrong are fetched again, checked against their recorded
  /// SHA-256 and written back at their own offsets (issue 36), and the stream is whole and
  /// byte-identical afterwards.
  @Test func aRepairOfADamagedPackFetchesOnlyTheDamagedSegments() async throws {
    let (origin, fixture, content, index, originals) = try await Self.packedStream(segments: 6)
    let folder = fixture.contentFolder("p")
    try #require(originals.count == 6 && originals.allSatisfy { !$0.isEmpty })
    let ranges = try OfflineSegments.list(index).map { try #require($0.range) }
    let first = try #require(ranges.firstIndex { $0.lowerBound == 0 })
    let last = try #require(ranges.indices.max { ranges[$0].lowerBound < ranges[$1].lowerBound })
    let before = try origin.nginx.accessLog().count
    let pack = folder.appending(path: "pack.ts").path
    try FileDamage.flipByte(at: 10, of: pack)  // the pack's first segment
    try FileDamage.flipByte(at: Int64(ranges[last].upperBound - 1), of: pack)  // its last

    let report = try await content.repair()

    #expect(report.piecesFetched == 2)
    #expect(try await content.verify().isWhole)
    #expect(try OfflineSegments.bytes(index) == originals, "byte-identical")
    let media = try await Self.requests(origin.nginx, after: before).filter {
      $0.method == "GET" && $0.uri.hasSuffix(".ts")
    }
    let uris = try String(contentsOf: origin.files.entryFile, encoding: .utf8)
      .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    let names = Set([first, last].map { uris[$0] })
    #expect(
      media.count == 2 && Set(media.map { ($0.uri as NSString).lastPathComponent }) == names,
      "\(media.map(\.uri))")
    #expect(
      try await FFmpeg.decode(try await content.playbackURL().path).errors.isEmpty)
  }

  /// Bytes that no playlist names changed in a pack (here appended past its recorded end;
  /// after a crash, a region written and never recorded): every segment in it is right, so
  /// a repair fetches nothing and records the pack as it is.
  @Test func aPackWhoseSegmentsAreRightIsRepairedWithoutFetching() async throws {
    let (origin, fixture, content, index, originals) = try await Self.packedStream(segments: 4)
    let folder = fixture.contentFolder("p")
    let handle = try #require(FileHandle(forWritingAtPath: folder.appending(path: "pack.ts").path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(repeating: 7, count: 100))
    try handle.close()
    #expect(try await content.verify().damage != nil)
    let before = try origin.nginx.accessLog().count

    let report = try await content.repair()

    #expect(report.outcome == .repaired)
    #expect(report.piecesFetched == 0)
    let media = try await Self.requests(origin.nginx, after: before).filter {
      $0.uri.hasSuffix(".ts")
    }
    #expect(media.isEmpty, "\(media.map(\.uri))")
    #expect(try await content.verify().isWhole)
    #expect(try OfflineSegments.bytes(index) == originals)
  }

  @Test(.enabled(if: FFmpeg.isAvailable)) func aRepairMendsADamagedDASHSegment() async throws {
    let origin = try await DASHOrigin(.timeline)
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url, id: "d", in: fixture)
    let segment = try #require(try VerifyFixture.pieces("d", .segment, in: fixture).last)
    let path = fixture.contentFolder("d").appending(path: segment.path).path
    let original = try Data(contentsOf: URL(filePath: path))
    try FileDamage.flipByte(at: segment.size / 2, of: path)
    let report = try await content.repair()
    #expect(report.piecesFetched == 1)
    #expect(try Data(contentsOf: URL(filePath: path)) == original)
    #expect(try await content.verify().isWhole)
  }

  @Test func aChangedOriginIsRefusedWithNothingChangedAndRedownloadWorks() async throws {
    let origin = try ManagerOrigin(files: ["a.bin": 9 << 20])
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url("a.bin"), id: "a", in: fixture)
    #expect(try await content.checkRemote() == .upToDate)
    let path = fixture.file("a.bin", of: "a").path
    try FileDamage.flipByte(at: 5 << 20, of: path)
    let damaged = FileManager.default.contents(atPath: path)
    let newer = TestData.bytes(count: 9 << 20, seed: 99)
    try newer.write(to: origin.root.file("a.bin"))
    // nginx's validators have a resolution of one second: the new version is a minute newer.
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(60)],
      ofItemAtPath: origin.root.file("a.bin").path)
    guard case .changed = try await content.checkRemote() else {
      Issue.record("a changed origin was reported up to date")
      return
    }
    do {
      try await content.repair()
      Issue.record("a repair mixed two versions")
    } catch {
      guard case .originChanged = error.kind else { throw error }
      #expect(error.description.contains("--redownload"), "\(error)")
    }
    #expect(FileManager.default.contents(atPath: path) == damaged, "nothing changed")
    #expect(try await content.repair(redownload: true).outcome == .redownloadQueued)
    #expect(try await runUntilIdle(fixture.manager, timeout: .seconds(60)))
    #expect(try await content.state == .downloaded)
    #expect(FileManager.default.contents(atPath: path) == newer)
    #expect(try await content.verify().isWhole)
  }

  @Test func anUnreachableOriginFailsTheRepairClearlyAndChangesNothing() async throws {
    let origin = try ManagerOrigin(files: ["a.bin": 6 << 20])
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url("a.bin"), id: "a", in: fixture)
    let path = fixture.file("a.bin", of: "a").path
    try #require(truncate(path, 1000) == 0)
    origin.nginx.stop(graceful: false)
    do {
      try await content.repair()
      Issue.record("a repair without an origin succeeded")
    } catch {
      guard case .transfer = error.kind else { throw error }
    }
    #expect(FileSteps.regularFileSize(path) == 1000, "nothing changed")
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: (path as NSString).deletingLastPathComponent
    ).filter { $0.hasSuffix(".part") }
    #expect(leftovers.isEmpty)
  }
}
