import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A download that switched from one connection to several, stopped, then run again.
///
/// Pins a trust defect `benchmarks/crash-resume.sh` found: an automatic (`get` with no
/// connection option) download killed after it had switched left a part as long as the file,
/// holes included. The next run started on one connection, which took that length for bytes
/// written and saved the holes as the file: "Saved", exit 0, wrong bytes.
@Suite(.timed) struct SwitchedPartResumeTests {
  let total = 96 << 20
  let written = 12 << 20

  /// What a stop just after the switch leaves: the part cut to the file's length with only
  /// its first `written` bytes in it, a finished first range and eight ranges not begun.
  func seedSwitchedPart(_ fixture: TransferFixture, body: Data, url: URL) throws -> String {
    let destination = fixture.destination()
    try fixture.seedPart(body.prefix(written), url: url)
    #expect(truncate(destination + ".part", off_t(total)) == 0)
    try fixture.index.transfers.save(
      TransferRecord(
        destination: destination, url: url.absoluteString, durableOffset: Int64(written),
        bootID: BootIdentity.current, totalLength: Int64(total), etag: "\"v1\""))
    let done = Int64(written)
    let rest = SegmentedTransfer.split(Int64(total) - done, into: 8).map {
      TransferRange(start: $0.start + done, end: $0.end + done, next: $0.next + done)
    }
    try fixture.index.transfers.saveRanges(
      [TransferRange(start: 0, end: done, next: done)] + rest, forDestination: destination)
    return destination
  }

  func origin(_ body: Data) throws -> FaultServer {
    let server = try FaultServer()
    server.setRoute("/big.bin", .resource(.init(body: body, etag: "\"v1\"")))
    return server
  }

  @Test func anAutomaticDownloadStoppedAfterItsSwitchGoesOnWithItsRanges() async throws {
    let body = TestData.bytes(count: total, seed: 61)
    let server = try origin(body)
    let fixture = try TransferFixture()
    _ = try seedSwitchedPart(fixture, body: body, url: server.url("/big.bin"))
    let log = EventLog()
    let outcome = try await fixture.transfer(
      server.url("/big.bin"), configuration: .quick { $0.connections = .adaptive }
    ).run(onEvent: log.record)
    #expect(fileData(outcome.destination) == body, "the origin's bytes, not the part's holes")
    #expect(log.requestedOffsets == [Int64(written)], "the ranges resumed where they stood")
    // The eight ranges not begun, each its own request (one connection would have sent one).
    let asked = server.requests(for: "/big.bin").compactMap { $0.headers["range"] }
    #expect(asked.count >= 8, "\(asked)")
    #expect(!asked.contains { $0.hasPrefix("bytes=0-") }, "the first range was done")
  }

  /// The same part resumed over one connection (`--connections 1`, or a segmented run that
  /// falls back to one): it goes on from the written prefix, and the ranges are dropped.
  @Test func oneConnectionGoesOnFromTheWrittenPrefixOfARangedPart() async throws {
    let body = TestData.bytes(count: total, seed: 62)
    let server = try origin(body)
    let fixture = try TransferFixture()
    let destination = try seedSwitchedPart(fixture, body: body, url: server.url("/big.bin"))
    let log = EventLog()
    let outcome = try await fixture.transfer(
      server.url("/big.bin"), configuration: .quick { $0.connections = .single }
    ).run(onEvent: log.record)
    #expect(fileData(outcome.destination) == body, "the origin's bytes, not the part's holes")
    #expect(log.requestedOffsets == [Int64(written)])
    #expect(try fixture.index.transfers.ranges(forDestination: destination).isEmpty)
  }

  @Test func theWrittenPrefixEndsAtTheFirstGap() {
    let ranges = [
      TransferRange(start: 10, end: 20, next: 15),
      TransferRange(start: 0, end: 10, next: 10),
      TransferRange(start: 20, end: 30, next: 30),
    ]
    #expect(Transfer.writtenPrefix(of: ranges) == 15)
    #expect(Transfer.writtenPrefix(of: [TransferRange(start: 0, end: 10, next: 4)]) == 4)
    #expect(Transfer.writtenPrefix(of: [TransferRange(start: 5, end: 10, next: 10)]) == 0)
    #expect(Transfer.writtenPrefix(of: []) == 0)
  }
}
