import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The body that arrives while the delegate is still answering the head is gathered, and
/// handed over only after the answer, and only when the answer is `.receive` (issue 14: the
/// body used to wait paused for the answer, a round trip between the network thread and the
/// delegate's queue for every response, most of a small response's time).
@Suite(.timed) struct CurlDeliveryHeadAnswerTests {
  /// A delegate that takes 200 ms to answer: the body of a file that arrives in that time
  /// comes after the head, whole and in order.
  @Test func aBodyThatArrivesBeforeTheAnswerComesAfterTheHeadWhole() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (300 << 10, 41), "b.bin": (3 << 20, 42)])
    let transport = CurlTransport()
    for (name, count, seed) in [("a.bin", 300 << 10, UInt64(41)), ("b.bin", 3 << 20, 42)] {
      let delegate = RecordingDelegate { _ in
        usleep(200_000)
        return .receive
      }
      let head = try await transport.perform(
        HTTPRequest(url: nginx.url("/" + name)), delegate: delegate)
      #expect(head.status == 200)
      #expect(delegate.heads.count == 1)
      #expect(delegate.body == TestData.bytes(count: count, seed: seed), "\(name)")
    }
  }

  /// What arrived before a slow `.discard` or `.stop` never reaches the delegate, and the
  /// transport serves the next request as usual.
  @Test func aBodyThatArrivesBeforeADiscardOrStopIsDropped() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (300 << 10, 43)])
    let transport = CurlTransport()
    for answer in [HTTPBodyDisposition.discard, .stop] {
      let delegate = RecordingDelegate { _ in
        usleep(200_000)
        return answer
      }
      let head = try await transport.perform(
        HTTPRequest(url: nginx.url("/a.bin")), delegate: delegate)
      #expect(head.status == 200)
      #expect(delegate.partCount == 0, "\(answer): \(delegate.byteCount) bytes delivered")
    }
    let after = RecordingDelegate()
    _ = try await transport.perform(HTTPRequest(url: nginx.url("/a.bin")), delegate: after)
    #expect(after.body == TestData.bytes(count: 300 << 10, seed: 43))
  }
}
