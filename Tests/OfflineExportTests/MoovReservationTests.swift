import Foundation
import TestTiming
import Testing

@testable import OfflineExport

/// An MP4's index goes into room kept before the media (no `faststart` pass over the whole
/// file), and a room too small makes the copy again with `faststart`: either way the `moov`
/// comes first and the file passes the check.
@Suite(.timed) struct MoovReservationTests {
  @Test func theRoomIsFortyEightBytesAPacketAQuarterOverAndNoneWhenARateIsUnknown() {
    // 25 frames and 46.875 AAC frames a second for 120 s: 8,625 packets.
    #expect(
      MoovReservation.bytes(packetRates: [25, 46.875], duration: 120)
        == Int(8625 * 1.25 * 48) + 65536)
    #expect(MoovReservation.bytes(packetRates: [25, nil], duration: 120) == nil)
    #expect(MoovReservation.bytes(packetRates: [25, 0], duration: 120) == nil)
    #expect(MoovReservation.bytes(packetRates: [25], duration: 0) == nil)
  }

  /// Copies a transport stream fixture to MP4 with the room sized by `reservation`, checks
  /// the file against the copy (throwing if it differs) and returns its top-level boxes and
  /// the log's lines.
  func export(reservation: @escaping ([Double?], Double) -> Int?) throws -> (
    boxes: [(type: String, size: Int)], log: [String]
  ) {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 4, in: folder.url)
    let source = try ExportInput.locate(fixture.folder)
    let path = folder.url.appendingPathComponent("out.mp4").path
    let lines = Locked<[String]>([])
    let outcome = try Remuxer(
      source: source, path: path, format: .mp4, cancellation: CancellationFlag(),
      log: { message in lines.set(lines.value + [message.text]) }, progress: { _ in },
      moovReservation: reservation
    ).run()
    _ = try ExportVerifier(
      path: path, format: .mp4, plans: outcome.plans, source: source,
      cancellation: CancellationFlag(), progress: { _ in }
    ).verify()
    return (try Self.boxes(of: Data(contentsOf: URL(fileURLWithPath: path))), lines.value)
  }

  /// The top-level boxes of an ISO BMFF file, with their sizes.
  static func boxes(of data: Data) -> [(type: String, size: Int)] {
    var boxes: [(type: String, size: Int)] = []
    var offset = 0
    while offset + 8 <= data.count {
      let start = data.startIndex + offset
      var size = data[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: data[start + 4..<start + 8], as: UTF8.self)
      if size == 1, offset + 16 <= data.count {
        size = data[start + 8..<start + 16].reduce(0) { $0 << 8 | Int($1) }
      }
      guard size >= 8 else { break }
      boxes.append((type, size))
      offset += size
    }
    return boxes
  }

  @Test func theIndexIsWrittenIntoItsRoomBeforeTheMedia() throws {
    let (boxes, log) = try export(reservation: MoovReservation.bytes)
    #expect(boxes.prefix(3).map(\.type) == ["ftyp", "moov", "free"], "\(boxes)")
    // What the index left of its room (faststart writes only an 8-byte `free`).
    #expect(boxes.count > 2 && boxes[2].size > 8, "\(boxes)")
    #expect(boxes.last?.type == "mdat", "\(boxes)")
    #expect(log.allSatisfy { !$0.contains("faststart") }, "\(log)")
  }

  @Test func aRoomTooSmallCopiesAgainWithFaststart() throws {
    let (boxes, log) = try export(reservation: { _, _ in 64 })
    #expect(boxes.prefix(2).map(\.type) == ["ftyp", "moov"], "\(boxes)")
    #expect(log.contains { $0.contains("copying again with faststart") }, "\(log)")
  }
}
