import Foundation
import Testing

@testable import OfflineKit

/// Issue 40: the pieces of a stream are fetched in the order a player needs them, so a
/// player that starts while the stream downloads finds video and audio on disk up to the
/// same moment (a planner lists each media playlist's pieces in turn).
@Suite(.timed)
struct StreamPieceOrderTests {
  private static func piece(_ local: String, rendition: Int, seconds: Double) -> StreamPiece {
    StreamPiece(
      remote: URL(string: "https://cdn.example/\(local)")!, local: local, slice: nil,
      estimatedBytes: 100, segments: seconds > 0 ? 1 : 0, duration: seconds,
      rendition: rendition)
  }

  @Test func renditionsAreInterleavedByTimeWithEachInitSectionFirst() {
    let planned = [
      Self.piece("video/init.mp4", rendition: 0, seconds: 0),
      Self.piece("video/s0.m4s", rendition: 0, seconds: 4),
      Self.piece("video/s1.m4s", rendition: 0, seconds: 4),
      Self.piece("video/s2.m4s", rendition: 0, seconds: 4),
      Self.piece("audio/init.mp4", rendition: 1, seconds: 0),
      Self.piece("audio/s0.m4s", rendition: 1, seconds: 6),
      Self.piece("audio/s1.m4s", rendition: 1, seconds: 6),
    ]
    let ordered = StreamPiece.inPlaybackOrder(planned).map(\.local)
    #expect(
      ordered == [
        "video/init.mp4", "video/s0.m4s", "audio/init.mp4", "audio/s0.m4s", "video/s1.m4s",
        "audio/s1.m4s", "video/s2.m4s",
      ])
  }

  @Test func piecesWithoutDurationsKeepTheirOrder() {
    let planned = (0..<5).map { Self.piece("p\($0)", rendition: $0 % 2, seconds: 0) }
    #expect(StreamPiece.inPlaybackOrder(planned) == planned)
  }
}
