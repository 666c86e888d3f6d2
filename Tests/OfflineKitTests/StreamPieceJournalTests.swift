import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// What a stream's pieces cost the journal (issue 14, HLS CPU: two journal commits and a
/// journal read per segment were a tenth of `offline get`'s CPU), and that writing less
/// never makes a run trust or refetch more than before.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct StreamPieceJournalTests {
  /// Pins issue 14 (HLS CPU): each piece committed its response record and then, after
  /// the rename, its `complete` record on its own: at least two commits per segment. The
  /// `complete` records went many to a transaction (about one commit per segment left), and
  /// now the response records of pieces finishing together share one too
  /// (``ResponseRecordBatch``): 15-20 commits for 96 segments on loopback, where the
  /// response records alone took 96. Packed pieces (the default for segments this small)
  /// write one record each, in the same group commits.
  @Test(arguments: [true, false])
  func aStreamOfManySegmentsCommitsTheJournalFarLessThanOncePerSegment(packs: Bool)
    async throws
  {
    let segments = 96
    let stream = try await HLSOrigin(.manySegments, segmentCount: segments)
    defer { stream.nginx.stop() }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let folder = store.url.appending(path: "content")
    let before = index.transfers.database.commitCount
    _ = try await HLSDownload(
      url: stream.url, folder: folder,
      configuration: StreamConfiguration(packsSmallSegments: packs),
      journal: index.transfers, transport: CurlTransport()
    ).run()
    let commits = index.transfers.database.commitCount - before

    #expect(commits <= segments / 2, "\(commits) commits for \(segments) segments")
    let records = try index.transfers.records(under: folder.path)
    let pieces = records.values.filter { $0.destination.hasSuffix(".ts") }
    #expect(pieces.count == segments)
    #expect(pieces.allSatisfy { $0.phase == .complete && $0.sha256 != nil })
    // A piece in a file has that file's identity; a piece in the pack has its place there.
    #expect(pieces.allSatisfy { packs ? $0.pack != nil : $0.fileIdentity != nil })
  }

  /// Guards the batching above: a process killed before a batch of `complete` records was
  /// written leaves pieces with only their response records; the next run in the same boot
  /// takes those files as finished (nothing fetched again) and records them complete. For
  /// pieces with files of their own (a piece in a pack has one record, `complete` at once).
  @Test func piecesWhoseCompleteRecordWasLostAreNotFetchedAgain() async throws {
    let segments = 24
    let stream = try await HLSOrigin(.manySegments, segmentCount: segments)
    defer { stream.nginx.stop() }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let folder = store.url.appending(path: "content")
    let download = HLSDownload(
      url: stream.url, folder: folder,
      configuration: StreamConfiguration(packsSmallSegments: false), journal: index.transfers,
      transport: CurlTransport())
    _ = try await download.run()
    // What a kill before the batch leaves: each piece's record as its response wrote it.
    let lost = try index.transfers.records(under: folder.path).values
      .filter { $0.destination.hasSuffix(".ts") }
      .map { record in
        var response = record
        response.phase = .active
        response.sha256 = nil
        response.fileIdentity = nil
        return response
      }
    #expect(lost.count == segments)
    try index.transfers.save(Array(lost))
    let fetchedBefore = try await stream.nginx.accessLog(minimumCount: segments + 1)
      .filter { $0.uri.hasSuffix(".ts") }.count

    _ = try await download.run()
    let fetchedAfter = try await stream.nginx.accessLog(minimumCount: segments + 1)
      .filter { $0.uri.hasSuffix(".ts") }.count
    #expect(fetchedAfter == fetchedBefore, "no segment fetched twice")
    let records = try index.transfers.records(under: folder.path).values
      .filter { $0.destination.hasSuffix(".ts") }
    #expect(records.allSatisfy { $0.phase == .complete && $0.fileIdentity != nil })
    let decoded = try await FFmpeg.decode(folder.appending(path: "index.m3u8").path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }
}
