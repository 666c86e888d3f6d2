import Foundation
import OfflineKit
import TestSupport
import TestTiming
import Testing

/// A peer's bytes are checked piece by piece against the chunk hashes the peer recorded at
/// its download (issue 43, item 4: "bytes from a peer are checked like any mirror's"): a
/// piece changed on the peer's disk since is caught as it lands, fetched again from the
/// origin, and the peer is named in the sources as having served a bad piece; the file is
/// right, not failed whole at the final check.
@Suite(.ownThreads, .timed) struct GetPeerBadPieceTests {
  @Test func aPieceChangedOnThePeersDiskIsCaughtAndFetchedAgainFromTheOrigin() async throws {
    let setup = try GetCommandTests.Setup(size: 16 << 20)
    let peer = try await GetPeerTests.Peer()
    let id = try await peer.download(setup.nginx.url("/file.bin"))
    let onPeer = try await peer.manager.snapshot(id: id).fileURL
    let handle = try FileHandle(forWritingTo: onPeer)
    try handle.seek(toOffset: UInt64(2 * ChunkSize.bytes + 10))
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 1000))
    try handle.close()
    let before = try await setup.nginx.accessLog(minimumCount: 1).count
    let result = try await peer.serving(
      try await setup.verifiedGet() + ["--peer", peer.link, "--json"], for: setup)
    setup.expectWholeFile(result)
    let refetched = result.jsonEvents(named: "refetchingPieces")
      .flatMap { ($0["pieces"] as? [Int]) ?? [] }
    #expect(refetched == [2], "\(result.stdoutText)")
    let finished = try #require(result.jsonEvents(named: "finished").first)
    let sources = try #require(finished["sources"] as? [[String: Any]])
    #expect((sources.last?["badPieces"] as? NSNumber)?.intValue == 1, "\(sources)")
    let after = Array(try setup.nginx.accessLog().dropFirst(before))
    let served = after.filter { $0.status == 206 }.compactMap {
      GetPeerNamespaceTests.bytes(of: $0.range)
    }
    let piece = Int64(2 * ChunkSize.bytes)..<Int64(3 * ChunkSize.bytes)
    #expect(GetPeerNamespaceTests.covers(served, piece), "\(after)")
  }

  /// The chunk size the store hashes (`ChunkDigests.chunkSize`): 4 MiB.
  enum ChunkSize {
    static let bytes = 4 << 20
  }
}
