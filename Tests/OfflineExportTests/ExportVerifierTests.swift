import Foundation
import TestTiming
import Testing

@testable import OfflineExport

/// The check after writing finds a file that is not the offline copy's packets.
@Suite(.timed) struct ExportVerifierTests {
  @Test(arguments: ExportFormat.allCases)
  func changedByteInTheFileFailsTheCheck(format: ExportFormat) throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 4, in: folder.url)
    let source = try ExportInput.locate(fixture.folder)
    let path = folder.url.appendingPathComponent("out.\(format.rawValue)").path
    let outcome = try Remuxer(
      source: source, path: path, format: format, cancellation: CancellationFlag(),
      log: { _ in }, progress: { _ in }
    ).run()
    let verifier = ExportVerifier(
      path: path, format: format, plans: outcome.plans, source: source,
      cancellation: CancellationFlag(),
      progress: { _ in })
    let (verification, _) = try verifier.verify()
    #expect(verification.packetsCompared == outcome.plans.reduce(0) { $0 + $1.digests.count })

    // One bit of a byte two thirds into the file (inside the media data) flipped.
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes[bytes.count * 2 / 3] ^= 0x10
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect {
      try verifier.verify()
    } throws: { error in
      guard case .verificationFailed = error as? ExportError else { return false }
      return true
    }
  }

  @Test func missingPacketFailsTheCheck() throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 4, in: folder.url)
    let source = try ExportInput.locate(fixture.folder)
    let path = folder.url.appendingPathComponent("out.mp4").path
    var outcome = try Remuxer(
      source: source, path: path, format: .mp4, cancellation: CancellationFlag(),
      log: { _ in }, progress: { _ in }
    ).run()
    // The copy claims one packet more than was written.
    let written = outcome.plans[1].digests.count
    outcome.plans[1].digests.append(outcome.plans[1].digests[0])
    let verifier = ExportVerifier(
      path: path, format: .mp4, plans: outcome.plans, source: source,
      cancellation: CancellationFlag(),
      progress: { _ in })
    #expect(
      throws: ExportError.verificationFailed(
        detail: "track 1 (aac) has \(written) packets instead of \(written + 1)")
    ) {
      try verifier.verify()
    }
  }
}

/// The second read of the offline copy, when asked for.
@Suite(.timed) struct SourceRereadTests {
  @Test(arguments: [Fixture.Kind.transportStream, .discontinuous])
  func offlineCopyReadAgainMatchesWhatWasCopied(kind: Fixture.Kind) async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(kind, seconds: 4, in: folder.url)
    let report = try await StreamExport(
      source: fixture.folder, destination: folder.url.appendingPathComponent("out.mkv"),
      rereadsSource: true
    ).run()
    // The discontinuous copy has audio frames dropped at its reset: the second read skips
    // the same ones.
    #expect((report.tracks[1].droppedAtDiscontinuities > 0) == (kind == .discontinuous))
  }

  @Test func segmentChangedAfterTheCopyFailsTheSecondRead() throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 4, in: folder.url)
    let source = try ExportInput.locate(fixture.folder)
    let path = folder.url.appendingPathComponent("out.mp4").path
    let outcome = try Remuxer(
      source: source, path: path, format: .mp4, cancellation: CancellationFlag(),
      log: { _ in }, progress: { _ in }
    ).run()
    // One byte of the last segment's payload changes, as a failing disk would give it.
    let segment = fixture.folder.appendingPathComponent("index1.ts")
    var bytes = try Data(contentsOf: segment)
    bytes[188 * 40 + 100] ^= 0x01
    try bytes.write(to: segment)
    let verifier = ExportVerifier(
      path: path, format: .mp4, plans: outcome.plans, source: source,
      cancellation: CancellationFlag(), progress: { _ in })
    _ = try verifier.verify()
    #expect {
      try verifier.verifySource()
    } throws: { error in
      guard case .verificationFailed(let detail) = error as? ExportError else { return false }
      return detail.hasPrefix("the offline copy read again")
    }
  }
}
