import OfflineStore
import TestTiming
import Testing

@testable import OfflineKit

/// Where a run starts, one row of `docs/Transfer.md`'s table per test, without I/O.
@Suite(.timed) struct TransferStartTests {
  let url = "https://example.com/a.bin"
  let destination = "/data/a.bin"

  func record(url: String? = nil, boot: String? = "boot-1", durable: Int64 = 100)
    -> TransferRecord
  {
    TransferRecord(
      destination: destination, url: url ?? self.url, durableOffset: durable, bootID: boot,
      totalLength: 1000, etag: "\"v1\"", contentEncoding: "gzip")
  }

  func start(_ found: TransferRecord?, part: Int64, boot: String? = "boot-1") -> TransferStart {
    TransferStart(
      record: found, partLength: part, destination: destination, url: url,
      expectedSHA256: nil, bootID: boot)
  }

  @Test func noRecordAndAPartDropsThePartAsUnknown() {
    let start = start(nil, part: 500)
    #expect(start.keptLength == 0)
    #expect(start.restart == .unknownPartialFile)
    #expect(start.record.etag == nil && start.record.totalLength == nil)
  }

  @Test func noRecordAndNoPartStartsFreshWithoutARestart() {
    let start = start(nil, part: 0)
    #expect(start.keptLength == 0)
    #expect(start.restart == nil)
    #expect(start.record.phase == .active)
  }

  @Test func aRecordForAnotherURLIsNoRecord() {
    let start = start(record(url: "https://example.com/other.bin"), part: 500)
    #expect(start.keptLength == 0)
    #expect(start.restart == .unknownPartialFile)
    #expect(start.record.url == url)
    #expect(start.record.etag == nil)
  }

  @Test func aRecordOfThisBootTrustsTheWholePart() {
    let start = start(record(durable: 100), part: 500)
    #expect(start.keptLength == 500)
    #expect(start.restart == nil)
    #expect(start.record.durableOffset == 100)
    #expect(start.record.etag == "\"v1\"")
    #expect(start.record.contentEncoding == "gzip")
  }

  @Test func aRecordOfAnEarlierBootTrustsOnlyTheDurableOffset() {
    let start = start(record(boot: "boot-0", durable: 100), part: 500, boot: "boot-1")
    #expect(start.keptLength == 100)
    #expect(start.restart == nil)
    #expect(start.record.bootID == "boot-1")
  }

  @Test func aRecordWithoutABootIDTrustsOnlyTheDurableOffset() {
    let start = start(record(boot: nil, durable: 100), part: 500)
    #expect(start.keptLength == 100)
  }

  @Test func aDurableOffsetPastThePartIsCutToThePart() {
    let start = start(record(durable: 900), part: 300)
    #expect(start.keptLength == 300)
    #expect(start.record.durableOffset == 300)
  }

  @Test func aCompleteRecordGoesOnAsActiveWithoutItsFileIdentity() {
    var complete = record()
    complete.phase = .complete
    complete.fileIdentity = FileIdentity(size: 1, modificationNanoseconds: 2, inode: 3, device: 4)
    let start = start(complete, part: 0)
    #expect(start.record.phase == .active)
    #expect(start.record.fileIdentity == nil)
    #expect(start.record.contentEncoding == nil, "no bytes kept, so no coding to keep to")
  }
}
