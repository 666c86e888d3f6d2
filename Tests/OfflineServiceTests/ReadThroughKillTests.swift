import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 40: `offline serve` killed with SIGKILL while a player reads a file through it, then
/// started again: the download goes on from its journal, the file ends as the origin's, and
/// no range is asked of the origin twice in full.
@Suite("offline serve killed while a player reads through", .serialized, .timed)
struct ReadThroughKillTests {
  /// 64 MiB from nginx at 128 KiB/s per request (at most 2 MiB/s over sixteen: the kill
  /// lands while it downloads, however loaded the machine; at 256 KiB/s the whole suite's
  /// load once held the first read until the download had ended, session 38). A player
  /// (curl) reads 1 MiB at 24 MiB, far past the download, and gets the origin's bytes; a second read, at 12 MiB, is under way
  /// when the service is killed. The service started again finishes the download: the file
  /// is the origin's, no two ranges nginx answered in full overlap, and nginx sent the file
  /// once plus at most what the requests cut by the kill held (2 MiB each, nginx's
  /// `sendfile` chunk): a cut range is asked again from where it reached the journal.
  @Test(.timeLimit(.minutes(3))) func aKilledServiceResumesAndFetchesNoRangeTwice() async throws {
    let size = 64 << 20
    let origin = try TemporaryDirectory(prefix: "offlinekit-kill-origin")
    try TestData.writeFile(at: origin.file("movie.bin"), count: size, seed: 40)
    let body = try Data(contentsOf: origin.file("movie.bin"))
    let nginx = try NginxServer(
      root: origin.url, options: .init(limitRate: "128k", logsConnections: true))
    try nginx.start()
    defer { nginx.stop() }
    let store = try TemporaryDirectory(prefix: "offlinekit-kill-store")
    let port = try FreePort.make()
    let output = store.file("serve.out")
    var serve = try await ServeBinary.serve(store: store.url, port: port, output: output)
    defer { serve.killIfRunning() }
    let id = try await ServeBinary.add(nginx.url("/movie.bin"), store: store.url)
    let file = "http://127.0.0.1:\(port)/content/\(id)/movie.bin"

    let farAskedAt = Date()
    // 8 s at the origin's pace; two minutes for a loaded machine (the whole suite's load
    // once cut it at one, session 39), and the message says how many bytes came when.
    let far = try await Curl.fetch(file, ["-r", "\(24 << 20)-\((25 << 20) - 1)", "-m", "120"])
    let took = Date().timeIntervalSince(farAskedAt)
    #expect(far.status == 206)
    let farIsTheOrigins = far.body == body[(24 << 20)..<(25 << 20)]
    let differsAt =
      zip(far.body, body[(24 << 20)..<(25 << 20)]).enumerated()
      .first { $0.element.0 != $0.element.1 }.map { String($0.offset) } ?? "none"
    #expect(
      farIsTheOrigins,
      "the bytes read through are the origin's: \(far.body.count) bytes in \(took) s, first difference at \(differsAt)"
    )

    let cut = Task {
      try await Curl.fetch(file, ["-r", "\(12 << 20)-\((14 << 20) - 1)", "-m", "60"])
    }
    try await Task.sleep(for: .milliseconds(500))
    let before = try await Curl.fetch("http://127.0.0.1:\(port)/api/contents/\(id)")
    let stateBefore = (try? JSONSerialization.jsonObject(with: before.body)) as? [String: Any]
    #expect(stateBefore?["state"] as? String == "downloading", "killed while it downloads")
    kill(serve.processIdentifier, SIGKILL)
    _ = try? await cut.value
    while serve.isRunning { try await Task.sleep(for: .milliseconds(20)) }

    serve = try ServeBinary.start(
      ["serve", "--listen", "127.0.0.1:\(port)"], store: store.url, output: output)
    let state = try await ServeBinary.waitForState("downloaded", of: id, port: port)
    #expect(state == "downloaded")
    #expect(await serve.stopBounded() == 130)
    let stored = try FileManager.default.contentsOfDirectory(
      at: store.url.appending(path: "files"), includingPropertiesForKeys: nil
    ).first { $0.lastPathComponent == "movie.bin" }
    let storedIsTheOrigins = try stored.map { try Data(contentsOf: $0) } == body
    #expect(storedIsTheOrigins, "the file is the origin's")

    let log = try nginx.accessLog()
    let asked = log.compactMap { entry -> (ClosedRange<Int64>, complete: Bool)? in
      guard entry.status == 206, let range = entry.range, range != "bytes=0-0" else { return nil }
      let bounds = range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int64($0) }
      guard bounds.count == 2 else { return nil }
      return (bounds[0]...bounds[1], entry.bodyBytesSent == bounds[1] - bounds[0] + 1)
    }
    // A request the kill cut is asked again from where its bytes reached the journal: it
    // overlaps what follows, by at most what its socket held (counted below).
    let whole = asked.filter(\.complete).map(\.0)
    for (index, range) in whole.enumerated() {
      let again = whole.enumerated().filter { $0.offset != index && $0.element.overlaps(range) }
      #expect(again.isEmpty, "\(range) was answered in full twice: \(again)")
    }
    let sent = log.reduce(Int64(0)) { $0 + $1.bodyBytesSent }
    // Cut: a range answered short, or the one connection's whole-file response stopped
    // to switch to ranges.
    let cutWhole = log.count { $0.status == 200 && $0.bodyBytesSent < Int64(size) }
    let cutRequests = Int64(asked.count { !$0.complete } + cutWhole)
    #expect(sent - Int64(size) <= cutRequests * (2 << 20), "sent \(sent - Int64(size)) more")
  }
}
