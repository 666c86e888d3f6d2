import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 36, items 2 and 3: the repair of a stream and the names of its damaged segments.
///
/// A CDN that lies serves new bytes for a segment under its old `ETag`, `Last-Modified` and
/// length. Before, `repair` fetched them without checking them against the SHA-256 recorded
/// for that segment, recorded their hash, and `verify` then called "whole" a copy that no
/// version of the origin ever was. And a damaged segment in `pack.ts` was named by its byte
/// offset in the pack, which tells a user nothing.
@Suite(.serialized, .timed)
struct StreamRepairVersionTests {
  /// Expects `repair` of `content` to refuse with `originChanged` naming `url`.
  static func expectRefusal(
    of content: OfflineContent, naming url: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    do {
      let report = try await content.repair()
      Issue.record("a repair took another version: \(report)", sourceLocation: sourceLocation)
    } catch {
      guard case .originChanged(let named) = error.kind else { throw error }
      #expect(named == url, sourceLocation: sourceLocation)
      #expect(error.description.contains("--redownload"), sourceLocation: sourceLocation)
    }
  }

  /// Pins item 2 for a segment in a file of its own (`--segment-files`).
  @Test func aRepairRefusesASegmentFileTheOriginChangedUnderTheSameValidators() async throws {
    let origin = try await HLSOrigin(.manySegments, segmentCount: 4)
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(
      origin.url, id: "s", in: fixture, configuration: VerifyFixture.segmentFiles)
    let segment = try VerifyFixture.pieces("s", .segment, in: fixture)[1]
    let url = try #require(segment.url)
    let path = fixture.contentFolder("s").appending(path: segment.path).path
    try FileDamage.flipByte(at: 10, of: path)
    let damaged = try Data(contentsOf: URL(filePath: path))
    let served = origin.files.folder.appending(path: try #require(URL(string: url)).path).path
    try FileDamage.flipByteKeepingValidators(at: 20, of: served)

    try await Self.expectRefusal(of: content, naming: url)

    #expect(try Data(contentsOf: URL(filePath: path)) == damaged, "nothing written")
    let report = try await content.verify()
    #expect(
      report.damage?.problems == [
        .init(path: segment.path, kind: .segment, fault: .wrongHash(chunkOffsets: []))
      ])
  }

  /// Pins item 2 for a segment inside `pack.ts` (the default), and item 3: `verify` names
  /// the damaged segment by its position in the playlist and its URL, before and after
  /// the refused repair.
  @Test func aRepairRefusesAPackedSegmentTheOriginChangedUnderTheSameValidators() async throws {
    let origin = try await HLSOrigin(.manySegments, segmentCount: 5)
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url, id: "p", in: fixture)
    let folder = fixture.contentFolder("p")
    let ranges = try OfflineSegments.list(folder.appending(path: "index.m3u8")).map {
      try #require($0.range)
    }
    let position = 2  // the third segment: neither the first in the playlist nor in the pack
    let hit = ranges[position]
    let uris = try String(contentsOf: origin.files.entryFile, encoding: .utf8)
      .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    let url = try #require(URL(string: uris[position], relativeTo: origin.url)).absoluteString
    let pack = folder.appending(path: "pack.ts").path
    try FileDamage.flipByte(at: Int64(hit.lowerBound + 10), of: pack)
    let damaged = try Data(contentsOf: URL(filePath: pack))
    let named = ContentDamage.Segment(
      playlist: "playlist.m3u8", position: position + 1, url: url, offset: Int64(hit.lowerBound))
    let before = try #require(try await content.verify().damage?.problems.first)
    #expect(before.segments == [named])
    #expect(
      before.description
        == "pack.ts (segment) has a wrong hash in segment 3 of playlist.m3u8 (\(url))",
      "\(before)")
    try FileDamage.flipByteKeepingValidators(
      at: 20, of: origin.files.folder.appending(path: uris[position]).path)

    try await Self.expectRefusal(of: content, naming: url)

    #expect(try Data(contentsOf: URL(filePath: pack)) == damaged, "nothing written")
    let after = try await content.verify()
    #expect(after.damage?.problems.map(\.segments) == [[named]], "\(String(describing: after))")
  }

  /// Pins item 2 for a DASH segment.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func aRepairRefusesADASHSegmentTheOriginChangedUnderTheSameValidators() async throws {
    let origin = try await DASHOrigin(.timeline)
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url, id: "d", in: fixture)
    let segment = try #require(try VerifyFixture.pieces("d", .segment, in: fixture).last)
    let url = try #require(segment.url)
    let path = fixture.contentFolder("d").appending(path: segment.path).path
    try FileDamage.flipByte(at: segment.size / 2, of: path)
    let damaged = try Data(contentsOf: URL(filePath: path))
    let served = origin.www.url.appending(path: try #require(URL(string: url)).path).path
    try FileDamage.flipByteKeepingValidators(at: segment.size / 3, of: served)

    try await Self.expectRefusal(of: content, naming: url)

    #expect(try Data(contentsOf: URL(filePath: path)) == damaged, "nothing written")
    #expect(try await content.verify().damage?.problems.map(\.path) == [segment.path])
  }

  /// A key whose bytes are wrong (its size right) was never fetched again: the repair
  /// fetched only keys of another size, then recorded the wrong key's hash, and `verify`
  /// called the stream whole though it no longer decrypts. Now it is fetched again and
  /// checked against its recorded SHA-256 like a segment.
  @Test func aRepairFetchesAKeyWithAFlippedByteAndRefusesAnotherVersionOfIt() async throws {
    let origin = try await HLSOrigin(.aes128Rotating, segmentCount: 4)
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url, id: "k", in: fixture)
    let key = try #require(try VerifyFixture.pieces("k", .key, in: fixture).last)
    let path = fixture.contentFolder("k").appending(path: key.path).path
    let original = try Data(contentsOf: URL(filePath: path))
    try FileDamage.flipByte(at: 3, of: path)
    try await content.repair()
    #expect(try Data(contentsOf: URL(filePath: path)) == original, "the key fetched again")
    #expect(try await content.verify().isWhole)

    try FileDamage.flipByte(at: 3, of: path)
    let damaged = try Data(contentsOf: URL(filePath: path))
    for served in origin.files.keys {
      try FileDamage.flipByteKeepingValidators(at: 5, of: served.path)
    }
    do {
      try await content.repair()
      Issue.record("a repair took another version of a key")
    } catch {
      guard case .originChanged(let url) = error.kind else { throw error }
      #expect(origin.files.keys.map(\.lastPathComponent).contains { url.hasSuffix($0) }, "\(url)")
    }
    #expect(try Data(contentsOf: URL(filePath: path)) == damaged, "nothing written")
    #expect(try await content.verify().damage?.problems.map(\.path) == [key.path])
  }

  /// A pack that is gone is fetched again through the piece engine: a segment of another
  /// version was written into the new pack before its hash was checked (in a region no
  /// record claims, but written all the same). Now its bytes are checked in memory first.
  @Test func aRepairOfAMissingPackWritesNoSegmentOfAnotherVersion() async throws {
    let origin = try await HLSOrigin(.manySegments, segmentCount: 5)
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(origin.url, id: "p", in: fixture)
    let pack = fixture.contentFolder("p").appending(path: "pack.ts").path
    try FileManager.default.removeItem(atPath: pack)
    let uris = try String(contentsOf: origin.files.entryFile, encoding: .utf8)
      .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    let served = origin.files.folder.appending(path: uris[2]).path
    try FileDamage.flipByteKeepingValidators(at: 20, of: served)
    let lied = try Data(contentsOf: URL(filePath: served))
    let url = try #require(URL(string: uris[2], relativeTo: origin.url)).absoluteString

    try await Self.expectRefusal(of: content, naming: url)

    let written = FileManager.default.contents(atPath: pack) ?? Data()
    #expect(written.range(of: lied) == nil, "the other version's bytes were written")
    #expect(try await content.verify().damage != nil)
  }
}
