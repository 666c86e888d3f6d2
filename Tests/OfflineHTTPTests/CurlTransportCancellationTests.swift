import Foundation
import OfflineHTTP
import TestSupport
import Testing

/// Cancelling the task that awaits `perform` ends the transfer and silences the delegate.
@Suite struct CurlTransportCancellationTests {
  /// 200 KB at 20 KB/s: about 10 s if nothing cancels it.
  let body = TestData.bytes(count: 200_000, seed: 7)

  @Test func cancellingTheTaskEndsATransferMidBody() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let faults = FaultServer.Faults(bytesPerSecond: 20_000)
    server.setRoute("/slow.bin", .resource(.init(body: body, faults: faults)))
    let transport = CurlTransport()
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
    #expect(error.kind == .cancelled)
    #expect(delegate.byteCount < body.count, "the transfer ended before the whole body")
    // The server keeps trickling for seconds; give it time to reach a callback that would run.
    try await Task.sleep(for: .milliseconds(300))
    #expect(delegate.callbacksAfterClose == 0)
  }

  @Test func aTaskCancelledBeforehandSendsNoRequest() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .resource(.init(body: body)))
    let transport = CurlTransport()
    let delegate = WatchedDelegate()
    let request = HTTPRequest(url: server.url("/a.bin"))
    let task = Task { () async -> HTTPError? in
      withUnsafeCurrentTask { $0?.cancel() }
      return await transport.failure(of: request, delegate: delegate)
    }
    let error = await task.value
    delegate.close()

    #expect(error?.kind == .cancelled)
    // The transport's thread works through its commands in order: once a later request is
    // answered, the cancelled one would have been sent already.
    _ = try await transport.perform(request, delegate: RecordingDelegate())
    #expect(server.requests(for: "/a.bin").count == 1)
    #expect(delegate.callbacksAfterClose == 0)
  }
}
