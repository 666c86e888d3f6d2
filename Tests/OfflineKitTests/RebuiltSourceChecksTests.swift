import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// An index rebuilt from the manifests (issue 43): a file's piece checks (a Metalink's) and
/// what each of its sources served come back with it, so the rebuilt store checks pieces as
/// the lost one did and `ls` and `info` still say which source served what.
@Suite(.serialized, .timed) struct RebuiltSourceChecksTests {
  static let size = 16 << 20
  static let pieceLength = 1 << 20

  static func checks(of body: Data) async throws -> PieceChecks {
    var hashes: [String] = []
    for index in 0..<(size / pieceLength) {
      let piece = body[(index * pieceLength)..<((index + 1) * pieceLength)]
      hashes.append(try await TestData.sha256Hex(of: Data(piece)))
    }
    return PieceChecks(length: Int64(pieceLength), size: Int64(size), hashes: hashes)
  }

  @Test func aRebuiltIndexKeepsAFilesPieceChecksAndItsSources() async throws {
    let origin = try ManagerOrigin(files: ["f.bin": Self.size, "q.bin": Self.size])
    let mirror = try ManagerOrigin(files: ["f.bin": Self.size])
    defer {
      origin.nginx.stop()
      mirror.nginx.stop()
    }
    let checks = try await Self.checks(of: try #require(origin.body("f.bin")))
    let queuedChecks = try await Self.checks(of: try #require(origin.body("q.bin")))
    var sourcesBefore: [Transfer.SourceReport]?
    let lost = try await ManagerFixture.losingTheIndex(seed: 11) { manager, store in
      // What `losingTheIndex` waits to see closed is seen open here.
      #expect(ManagerFixture.indexIsOpen(in: store))
      var source = OfflineSource(url: origin.url("f.bin"), id: "f", mirrors: [mirror.url("f.bin")])
      source.pieceChecks = checks
      _ = try await manager.add([source], configuration: DownloadConfiguration())
      #expect(try await runUntilIdle(manager, timeout: .seconds(60)))
      sourcesBefore = try await manager.snapshot(id: "f").sources
      // Queued only: its checks are in the queue's ledger.
      var queued = OfflineSource(url: origin.url("q.bin"), id: "q")
      queued.pieceChecks = queuedChecks
      _ = try await manager.add([queued], configuration: DownloadConfiguration())
      await manager.stop(suspendingRunning: false)
    }
    let manager = lost.manager
    let restored = Set(manager.rebuildReport?.restored.map(\.id) ?? [])
    #expect(restored == ["f", "q"], "\(String(describing: manager.rebuildReport))")
    let before = try #require(sourcesBefore)
    #expect(before.count == 2)
    let snapshot = try await manager.snapshot(id: "f")
    #expect(snapshot.state == .downloaded)
    #expect(snapshot.sources?.map(\.bytes) == before.map(\.bytes))
    #expect(snapshot.sources?.map(\.isPrimary) == [true, false])
    #expect(try await manager.keptPieceChecks(of: "f") == checks)
    #expect(try await manager.keptPieceChecks(of: "q") == queuedChecks)
    await manager.stop(suspendingRunning: false)
  }
}
