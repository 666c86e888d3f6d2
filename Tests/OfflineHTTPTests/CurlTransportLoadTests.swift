import Foundation
import OfflineHTTP
import TestSupport
import Testing

/// Many transfers on one transport, and a slow delegate slowing the network instead of
/// filling memory.
@Suite struct CurlTransportLoadTests {
  @Test func runsTwentyConcurrentRequestsOnOneTransport() async throws {
    let count = 20
    var files: [String: (count: Int, seed: UInt64)] = [:]
    for index in 0..<count { files["f\(index).bin"] = ((256 << 10) + index, UInt64(index)) }
    let nginx = try NginxFixture(files: files)
    let transport = CurlTransport()

    typealias Finished = (index: Int, delegate: RecordingDelegate, error: HTTPError?)
    let delegates = await withTaskGroup(of: Finished.self) { group in
      for index in 0..<count {
        group.addTask {
          let delegate = RecordingDelegate()
          let request = HTTPRequest(url: nginx.url("/f\(index).bin"))
          let outcome = await transport.outcome(of: request, delegate: delegate)
          if case .failure(let error) = outcome { return (index, delegate, error) }
          return (index, delegate, nil)
        }
      }
      var results: [Finished] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.index < $1.index }
    }

    #expect(delegates.count == count)
    for (index, delegate, error) in delegates {
      #expect(error == nil, "request \(index): \(error.map { "\($0)" } ?? "")")
      #expect(delegate.head?.status == 200)
      #expect(
        delegate.body == TestData.bytes(count: (256 << 10) + index, seed: UInt64(index)),
        "request \(index)")
    }
  }

  /// Backpressure, seen from the server: while the delegate is blocked, the server can
  /// send only what the transport keeps waiting for it (about 2 MiB) and the socket
  /// buffers take. A transport that read ahead into
  /// memory (FoundationNetworking's URLSession on Linux does) would take the whole file.
  @Test func aBlockedDelegateHoldsTheServerBack() async throws {
    let size = 128 << 20
    let nginx = try NginxFixture(files: ["big.bin": (size, 8)])
    let delegate = BlockingDelegate(blockAfter: 1 << 20, for: .milliseconds(1500))

    await #expect(throws: HTTPError.self) {
      try await CurlTransport().perform(HTTPRequest(url: nginx.url("/big.bin")), delegate: delegate)
    }

    let sent = try #require(try nginx.server.accessLog(minimumCount: 1).first).bodyBytesSent
    #expect(sent < 32 << 20, "nginx sent \(sent >> 20) MiB while the delegate was blocked")
  }
}

/// Blocks its transfer once, after `blockAfter` bytes, then stops the transfer.
///
/// `@unchecked Sendable`: its counter is touched only by its callbacks, which run one at a
/// time.
private final class BlockingDelegate: HTTPResponseDelegate, @unchecked Sendable {
  struct Stopped: Error {}
  private let blockAfter: Int
  private let pause: Duration
  private var received = 0

  init(blockAfter: Int, for pause: Duration) {
    self.blockAfter = blockAfter
    self.pause = pause
  }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition { .receive }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    received += bytes.count
    guard received >= blockAfter else { return }
    let (seconds, attoseconds) = pause.components
    usleep(UInt32(seconds) * 1_000_000 + UInt32(attoseconds / 1_000_000_000_000))
    throw Stopped()
  }
}
