import TestTiming
import Testing

@testable import TestSupport

@Suite(.timed) struct ByteRangeRequestTests {
  @Test(arguments: [
    ("bytes=0-", ByteRangeRequest.from(0)),
    ("bytes=5-9", .closed(5, 9)),
    ("bytes=-3", .suffix(3)),
    (" Bytes=1-1 ", .closed(1, 1)),
  ])
  func parsesSingleRanges(header: String, expected: ByteRangeRequest) {
    #expect(ByteRangeRequest(header) == expected)
  }

  @Test(arguments: ["bytes=0-1,5-6", "bytes=9-5", "items=0-1", "bytes=-", "bytes=+1-2", "bytes=a-"])
  func rejectsEverythingElse(header: String) {
    #expect(ByteRangeRequest(header) == nil)
  }

  @Test func resolvesAgainstTheEntitySize() {
    #expect(ByteRangeRequest.from(3).resolve(total: 10) == 3..<10)
    #expect(ByteRangeRequest.from(10).resolve(total: 10) == nil)
    #expect(ByteRangeRequest.closed(8, 20).resolve(total: 10) == 8..<10)
    #expect(ByteRangeRequest.suffix(20).resolve(total: 10) == 0..<10)
    #expect(ByteRangeRequest.suffix(0).resolve(total: 10) == nil)
    #expect(ByteRangeRequest.from(0).resolve(total: 0) == nil)
  }
}
