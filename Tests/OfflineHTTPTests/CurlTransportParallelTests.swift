import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

/// Several transfers on one transport move at once: none waits for another's connection,
/// and a delegate that takes its time holds back only its own transfer (issue 11, item 7).
@Suite(.timed) struct CurlTransportParallelTests {
  /// Pins issue 11, item 7: with `CURLOPT_PIPEWAIT` on plain HTTP/1.1, a request to a host
  /// whose first connection had not yet received its response head waited (libcurl's
  /// "pending" state) until that other transfer ended, instead of opening a connection.
  @Test func aRequestDoesNotWaitForAnotherRequestsConnectionToTheSameHost() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let small = TestData.bytes(count: 64 << 10, seed: 3)
    server.setRoute("/late", .delayed(seconds: 8, then: .resource(.init(body: small))))
    server.setRoute("/quick", .resource(.init(body: small)))
    let transport = CurlTransport()
    let late = WatchedDelegate()
    let first = Task {
      try await transport.perform(HTTPRequest(url: server.url("/late")), delegate: late)
    }
    defer { first.cancel() }
    let asked = await eventually { server.requests(for: "/late").count == 1 }
    #expect(asked, "the first request reached the server")

    let quick = RecordingDelegate()
    let head = try await transport.perform(HTTPRequest(url: server.url("/quick")), delegate: quick)

    #expect(head.status == 200)
    #expect(quick.body == small)
    #expect(late.byteCount == 0, "the quick request finished while the late one still waited")
  }

  /// Pins issue 11, item 7: every delegate ran on the one network thread, so a delegate
  /// waiting on its disk or its database stopped every other transfer of the transport.
  @Test func aSlowDelegateHoldsBackOnlyItsOwnTransfer() async throws {
    let nginx = try NginxFixture(files: ["slow.bin": (8 << 20, 1), "fast.bin": (2 << 20, 2)])
    let transport = CurlTransport()
    let slow = SlowDelegate(pausePerPart: .milliseconds(50))
    let held = Task {
      try await transport.perform(HTTPRequest(url: nginx.url("/slow.bin")), delegate: slow)
    }
    defer { held.cancel() }
    let started = await eventually { slow.byteCount > 0 }
    #expect(started, "the slow transfer is receiving")

    let fast = RecordingDelegate(keepsBody: false)
    let head = try await transport.perform(HTTPRequest(url: nginx.url("/fast.bin")), delegate: fast)

    #expect(head.status == 200)
    #expect(fast.byteCount == 2 << 20)
    // Before, the fast transfer got a part only between two of the slow delegate's pauses,
    // so the slow one had about as many bytes as the fast one (2 MiB) when it finished.
    #expect(
      slow.byteCount < 1 << 20,
      "the slow delegate had \(slow.byteCount) bytes when the fast transfer finished")
  }

  /// Pins issue 11, item 7: three files from a rate-limited nginx all receive at once,
  /// each on its own connection, their requests overlapping in nginx's log.
  @Test func threeRateLimitedFilesAllReceiveAtOnceOnTheirOwnConnections() async throws {
    let size = 12 << 20
    let names = ["a.bin", "b.bin", "c.bin"]
    var files: [String: (count: Int, seed: UInt64)] = [:]
    for (index, name) in names.enumerated() { files[name] = (size, UInt64(index)) }
    let nginx = try NginxFixture(
      files: files, options: .init(limitRate: "10m", logsConnections: true))
    let transport = CurlTransport()
    let delegates = names.map { _ in WatchedDelegate() }
    let tasks = zip(names, delegates).map { name, delegate in
      Task {
        try await transport.perform(HTTPRequest(url: nginx.url("/" + name)), delegate: delegate)
      }
    }
    defer { for task in tasks { task.cancel() } }

    // Once one of them has 4 MiB (0.4 s at the limit), every one must have bytes.
    let underway = await eventually(timeout: .seconds(30)) {
      delegates.contains { $0.byteCount >= 4 << 20 }
    }
    #expect(underway)
    let counts = delegates.map(\.byteCount)
    #expect(counts.allSatisfy { $0 > 0 }, "bytes per file when the first had 4 MiB: \(counts)")
    for task in tasks { _ = try await task.value }

    let log = try await nginx.server.accessLog(minimumCount: 3)
    #expect(log.count == 3)
    #expect(Set(log.compactMap(\.connection)).count == 3, "one connection per file: \(log)")
    #expect(log.allSatisfy { $0.connectionRequests == 1 }, "no file waited for a connection")
    let starts = log.compactMap(\.startedAt)
    let ends = log.compactMap(\.finishedAt)
    #expect(
      starts.count == 3 && starts.max()! < ends.min()!,
      "every request started before any ended: starts \(starts), ends \(ends)")
  }
}

extension CurlTransportParallelTests {
  /// Streams multiplexed on one HTTP/2 connection pause and go on independently (each waits
  /// for its delegate's answer to the head, a slow one for its delegate): every body comes
  /// whole, and the slow stream holds back none of the others.
  @Test func streamsOnOneHTTP2ConnectionPauseAndGoOnIndependently() async throws {
    let size = 4 << 20
    var files: [String: (count: Int, seed: UInt64)] = ["slow.bin": (size, 90)]
    for index in 0..<6 { files["f\(index).bin"] = (size, UInt64(index)) }
    let nginx = try NginxFixture(files: files, options: .init(tls: true, logsConnections: true))
    let caFile = try #require(nginx.server.certificatePath).path
    let transport = CurlTransport(configuration: .init(trustedCAFile: caFile))
    let slow = SlowDelegate(pausePerPart: .milliseconds(20))
    let held = Task {
      try await transport.perform(HTTPRequest(url: nginx.url("/slow.bin")), delegate: slow)
    }
    defer { held.cancel() }
    #expect(await eventually { slow.byteCount > 0 })

    let results = await withTaskGroup(of: (Int, RecordingDelegate, HTTPError?).self) { group in
      for index in 0..<6 {
        group.addTask {
          let delegate = RecordingDelegate()
          let outcome = await transport.outcome(
            of: HTTPRequest(url: nginx.url("/f\(index).bin")), delegate: delegate)
          if case .failure(let error) = outcome { return (index, delegate, error) }
          return (index, delegate, nil)
        }
      }
      var all: [(Int, RecordingDelegate, HTTPError?)] = []
      for await result in group { all.append(result) }
      return all
    }

    for (index, delegate, error) in results {
      #expect(error == nil, "f\(index): \(error.map { "\($0)" } ?? "")")
      #expect(delegate.head?.version == "HTTP/2")
      #expect(delegate.body == TestData.bytes(count: size, seed: UInt64(index)), "f\(index)")
    }
    #expect(slow.byteCount < size, "the slow stream was still going when the others ended")
    let log = try await nginx.server.accessLog(minimumCount: 6)
    #expect(Set(log.compactMap(\.connection)).count == 1, "one multiplexed connection")
  }
}

/// A delegate that sleeps in every body callback, like a slow disk, and whose byte count
/// a test can read while the transfer runs.
private final class SlowDelegate: HTTPResponseDelegate {
  private let count = Locked(0)
  private let pause: useconds_t

  init(pausePerPart: Duration) {
    pause = useconds_t(pausePerPart / .microseconds(1))
  }

  var byteCount: Int { count.withLock { $0 } }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition { .receive }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    count.withLock { $0 += bytes.count }
    usleep(pause)
  }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
private func eventually(timeout: Duration = .seconds(15), _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(10))
  }
  return condition()
}
