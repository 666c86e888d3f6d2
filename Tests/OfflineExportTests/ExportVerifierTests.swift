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
    let source = try OfflineSource.locate(fixture.folder)
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
    let source = try OfflineSource.locate(fixture.folder)
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
