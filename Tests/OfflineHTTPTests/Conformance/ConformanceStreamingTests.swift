import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

/// Bodies stream into the delegate with bounded memory, and cancelling the awaiting task
/// ends a transfer (issue 18, item 1).
@Suite(.timed) struct ConformanceStreamingTests {
  /// Backpressure, seen from the server: while the delegate is blocked, the server can send
  /// only what the transport keeps waiting for it and the socket buffers take, never the
  /// whole 128 MiB file.
  @Test(arguments: TransportFactory.all)
  func aBlockedDelegateHoldsTheServerBack(_ factory: TransportFactory) async throws {
    let size = 128 << 20
    let nginx = try NginxFixture(files: ["big.bin": (size, 8)])
    let delegate = StallingDelegate(blockAfter: 1 << 20, for: .milliseconds(1500))

    await #expect(throws: HTTPError.self) {
      try await factory.make().perform(
        HTTPRequest(url: nginx.url("/big.bin")), delegate: delegate)
    }

    let sent = try #require(try await nginx.server.accessLog(minimumCount: 1).first).bodyBytesSent
    await factory.expecting(.pauseWithoutEnding) {
      #expect(sent < 32 << 20, "nginx sent \(sent >> 20) MiB while the delegate was blocked")
    }
  }

  /// A delegate slower than the network gets every byte, in order, in one response.
  @Test(arguments: TransportFactory.all)
  func aSlowDelegateGetsEveryByteInOneResponse(_ factory: TransportFactory) async throws {
    let size = 24 << 20
    let nginx = try NginxFixture(files: ["a.bin": (size, 9)])
    let delegate = RecordingDelegate(pausePerPart: .microseconds(300))

    await factory.expecting(.pauseWithoutEnding) {
      let head = try await factory.make().perform(
        HTTPRequest(url: nginx.url("/a.bin")), delegate: delegate)
      #expect(head.status == 200)
      #expect(delegate.byteCount == size)
    }
    // Whatever happened, what arrived is the file's beginning, never a byte out of order.
    let expected = TestData.bytes(count: size, seed: 9)
    #expect(delegate.body == expected.prefix(delegate.body.count))
  }

  @Test(arguments: TransportFactory.all)
  func cancellingTheTaskEndsATransferMidBody(_ factory: TransportFactory) async throws {
    let body = TestData.bytes(count: 200_000, seed: 7)
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute(
      "/slow.bin", .resource(.init(body: body, faults: .init(bytesPerSecond: 20_000))))
    let transport = factory.make()
    let delegate = WatchedDelegate()
    let request = HTTPRequest(url: server.url("/slow.bin"))
    let task = Task { await transport.outcome(of: request, delegate: delegate) }

    let started = await delegate.waitForBytes(atLeast: 1)
    task.cancel()
    let result = await task.value
    delegate.close()

    #expect(started)
    guard case .failure(let error) = result else {
      Issue.record("expected .cancelled, got \(result)")
      return
    }
    #expect(error.kind == .canceled)
    #expect(delegate.byteCount < body.count, "the transfer ended before the whole body")
    try await Task.sleep(for: .milliseconds(300))
    #expect(delegate.callbacksAfterClose == 0)
  }

  @Test(arguments: TransportFactory.all)
  func aTaskCancelledBeforehandSendsNoRequest(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .resource(.init(body: TestData.bytes(count: 1000, seed: 7))))
    let transport = factory.make()
    let delegate = WatchedDelegate()
    let request = HTTPRequest(url: server.url("/a.bin"))
    let task = Task { () async -> HTTPError? in
      withUnsafeCurrentTask { $0?.cancel() }
      return await transport.failure(of: request, delegate: delegate)
    }
    let error = await task.value
    delegate.close()

    #expect(error?.kind == .canceled)
    _ = try await transport.perform(request, delegate: RecordingDelegate())
    #expect(server.requests(for: "/a.bin").count == 1)
    #expect(delegate.callbacksAfterClose == 0)
  }
}

/// Blocks its transfer once, after `blockAfter` bytes, then stops the transfer.
///
/// `@unchecked Sendable`: its counter is touched only by its callbacks, which run one at a
/// time.
private final class StallingDelegate: HTTPResponseDelegate, @unchecked Sendable {
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
