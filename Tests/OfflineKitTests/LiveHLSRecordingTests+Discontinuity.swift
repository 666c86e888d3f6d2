import Foundation
import TestSupport
import Testing

@testable import OfflineKit

extension LiveHLSRecordingTests {
  /// The origin's encoder starts over at 106 (its timestamps reset, `EXT-X-DISCONTINUITY`
  /// before it), and `EXT-X-DISCONTINUITY-SEQUENCE` advances once the tag left the window:
  /// every segment is kept, the offline playlist has the one discontinuity before 106 and
  /// none elsewhere, and it decodes to its full duration into the origin's pictures.
  @Test func aDiscontinuityWhereTheEncoderRestartedIsKeptInItsPlaceAndEverySegmentPlays()
    async throws
  {
    let origin = try await LiveOrigin(
      .init(segmentCount: 12, window: 5, initialSegments: 3, restarts: [106]))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    #expect(recorded.state.finished == .endList)
    #expect(recorded.state.journal.ledger.gaps.isEmpty, "\(recorded.state.journal.ledger)")
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    let numbers = recorded.recorded.map { recorded.state.entries[$0]?.discontinuitySequence }
    #expect(numbers == Array(repeating: 0, count: 6) + Array(repeating: 1, count: 6))
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    let parts = text.components(separatedBy: "#EXT-X-DISCONTINUITY\n")
    #expect(parts.count == 2, "\(text)")
    let after = parts.count == 2 ? parts[1] : ""
    #expect(after.split(separator: "\n").dropFirst().first == "s000106.ts", "\(text)")
    try await expectPlaysTheWholeStream(recorded, of: origin)
  }
}
