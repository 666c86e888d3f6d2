import Foundation
import OfflineHTTP
import TestSupport
import Testing

@testable import OfflineKit

/// Files served from memory by a ``ScriptedTransport``, with the same bytes as
/// ``ManagerOrigin`` serves from nginx: for tests of what the queue decides, where a
/// response held at a gate stands in for a throttled origin.
struct ScriptedOrigin {
  let transport = ScriptedTransport()
  let bodies: [String: Data]

  /// Serves `files` (name → size; the bytes of ``ManagerOrigin/body(of:size:)``) as a
  /// range-aware server would.
  init(files: [String: Int] = ["file.bin": 256 << 10]) {
    var bodies: [String: Data] = [:]
    for (name, size) in files { bodies[name] = ManagerOrigin.body(of: name, size: size) }
    self.bodies = bodies
    for (name, body) in bodies { transport.serve(url(name), ScriptedResource(body)) }
  }

  func url(_ name: String) -> URL { URL(string: "http://origin.test/" + name)! }

  func body(_ name: String) -> Data? { bodies[name] }

  /// Holds the next request for `name` where the queue sees it under way (see
  /// ``HeldResponse``), at `offset` bytes, until it is opened; later requests get the
  /// resource.
  func holding(_ name: String, atOffset offset: Int = 64 << 10) -> HeldResponse {
    let held = HeldResponse()
    transport.enqueue(url(name), held.applied(to: .ok(bodies[name]!), at: offset))
    return held
  }

  /// The paths requested, in order (`/a.bin`), and the `Range` of each.
  var requested: [(path: String, range: String?)] {
    transport.requests.map { ($0.url.path, $0.range) }
  }

  /// A content `missing` whose download failed for good (the origin answers 404), watched
  /// from before it was queued.
  static func failedDownload() async throws -> (ManagerFixture, OfflineContent, EventRecorder) {
    let origin = ScriptedOrigin(files: [:])  // a 404 for anything
    let fixture = try origin.fixture()
    let (content, recorder) = try await fixture.startDownload(
      of: origin, "missing.bin", id: "missing")
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "error" })
    }
    return (fixture, content, recorder)
  }

  /// A manager fixture whose manager (and reopened managers) fetch from this origin.
  func fixture(parallelDownloads: Int = 3) throws -> ManagerFixture {
    try ManagerFixture(parallelDownloads: parallelDownloads, transport: transport)
  }
}

extension ManagerFixture {
  /// Makes the content for `file` on `origin` with `id`, subscribes to its events, and
  /// queues its download.
  func startDownload(of origin: ScriptedOrigin, _ file: String, id: String) async throws
    -> (OfflineContent, EventRecorder)
  {
    let (content, recorder) = try await watched(origin.url(file), id: id)
    try await content.download()
    return (content, recorder)
  }
}

/// A response held where the queue sees its download under way: its first 16 KiB came, and
/// it reported progress, then it is held at ``gate`` at a chosen offset.
///
/// The library starts a transfer's progress reports from a body part that arrives one
/// progress interval (250 ms) after the request, by the real clock: so the response waits
/// at ``early`` for that long before it goes on. That wait is the one real-time wait left;
/// it goes once the configurations take a clock.
struct HeldResponse {
  let early = ScriptedGate()
  let gate = ScriptedGate()

  /// `response` held at ``early`` after its first 16 KiB and at ``gate`` at `offset`.
  func applied(to response: ScriptedResponse, at offset: Int) -> ScriptedResponse {
    response.held(by: early, atOffset: min(16 << 10, offset)).held(by: gate, atOffset: offset)
  }

  /// Waits until the response is held at ``gate``, a progress interval after its request:
  /// whether it got there within the bounds of the gates.
  func reached() async -> Bool {
    guard await early.reached() else { return false }
    try? await Task.sleep(for: .milliseconds(300))
    early.open()
    return await gate.reached()
  }

  /// Lets the response go on to its end.
  func open() {
    early.open()
    gate.open()
  }
}
