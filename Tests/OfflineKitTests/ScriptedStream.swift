import Foundation
import OfflineLocks
import TestSupport

/// An HLS fixture (made by ffmpeg) served from memory by a ``ScriptedTransport``: after the
/// first `passing` segments, every segment's response is held at ``gate`` until the test
/// opens it or stops holding, so a stream is under way, with some pieces done, for as long
/// as the test needs; no throttled origin.
struct ScriptedStream {
  let root: TemporaryDirectory
  let files: HLSFixtureFiles
  let transport = ScriptedTransport()
  let gate = ScriptedGate()
  let base = URL(string: "http://stream.test")!
  private let holds = Locked(true)

  /// Makes `fixture` (ffmpeg runs off the concurrency pool) and serves it; the segments
  /// after the first `passing` are held.
  static func make(_ fixture: HLSFixture, segmentCount: Int, passing: Int) async throws
    -> ScriptedStream
  {
    let root = try TemporaryDirectory(prefix: "offlinekit-hls")
    let files = try await fixture.make(in: root.url, segmentCount: segmentCount)
    return try ScriptedStream(root: root, files: files, passing: passing)
  }

  private init(root: TemporaryDirectory, files: HLSFixtureFiles, passing: Int) throws {
    self.root = root
    self.files = files
    let segments = Locked(0)
    let (gate, holds) = (gate, holds)
    try transport.serve(folder: files.folder, at: base) { path, response in
      guard path.hasSuffix(".ts") || path.hasSuffix(".m4s"), holds.withLock({ $0 }) else {
        return response
      }
      let number = segments.withLock { count in
        count += 1
        return count
      }
      return number > passing ? response.held(by: gate) : response
    }
  }

  /// The entry playlist's URL.
  var url: URL { base.appending(path: String(files.entryPath.dropFirst())) }

  /// Lets the held segments go, and every later one pass.
  func stopHolding() {
    holds.withLock { $0 = false }
    gate.open()
  }

  /// The paths of the segments requested, in order.
  var segmentPaths: [String] {
    transport.requests.map(\.url.path).filter { $0.hasSuffix(".ts") || $0.hasSuffix(".m4s") }
  }
}
