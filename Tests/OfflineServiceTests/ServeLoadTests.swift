import Foundation
import OfflineKit
import TestSupport
import TestTiming
import Testing

/// Issue 36, item 10: `offline serve` under load keeps its bounds.
@Suite("offline serve under load", .serialized, .timed)
struct ServeLoadTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appending(path: "scripts/serve_load.py").path

  /// nginx serving one file at 1 KiB/s: downloads of it never finish during a test.
  static func slowOrigin() throws -> (TemporaryDirectory, NginxServer, String) {
    let origin = try TemporaryDirectory(prefix: "offlinekit-serve-slow")
    try TestData.writeFile(at: origin.file("slow.bin"), count: 4 << 20)
    let nginx = try NginxServer(root: origin.url, options: .init(limitRate: "1k"))
    try nginx.start()
    return (origin, nginx, nginx.url("/slow.bin").absoluteString)
  }

  // Pins: SIGTERM with a queue of thousands and 150 event subscribers took 47-80 s (each
  // subscriber listed every content on the manager, and the service waited 10 s for them,
  // then stopped the manager behind them), and now and then the process died of SIGSEGV or
  // SIGBUS instead of exiting 143: it exited with libmicrohttpd's threads still running
  // and the manager still starting transfers while it stopped the others.
  @Test func aLoadedServiceExitsOnSIGTERMWithinTenSecondsFiftyTimesInARow() async throws {
    let (_, nginx, url) = try Self.slowOrigin()
    defer { nginx.stop() }
    let store = try TemporaryDirectory(prefix: "offlinekit-serve-load")
    let rounds = 50
    let output = try await ProcessRunner.run(
      "/usr/bin/python3",
      [Self.script, "shutdown", ServeBinary.path, store.path, url, "\(rounds)", "3000", "150"],
      timeout: 600)
    let lines = output.stdoutText.split(separator: "\n").map(String.init)
    #expect(lines.first == "added 201", "\(output.stdoutText)\n\(output.stderrText.suffix(2000))")
    let results = lines.filter { $0.hasPrefix("round ") }.map { $0.split(separator: " ") }
    let codes = results.map { String($0[3]) }
    let seconds = results.compactMap { Double($0[5]) }
    // Pins too: now and then (4 of 9 runs, at rounds 10-48) a round's `offline serve` neither
    // stopped on SIGTERM nor ended at its 10 s deadline. SIGINT and SIGTERM were left
    // ignored: the command's task started before the signal trap, serve's own Dispatch
    // sources registered first (installing Dispatch's handler, once per signal), and the
    // trap's `signal(SIG_IGN)` then replaced it for good. A round that hangs now prints the
    // process's signal masks and its threads (to stderr, shown below).
    #expect(results.count == rounds, "\(output.stdoutText)\n\(output.stderrText.suffix(6000))")
    #expect(codes.allSatisfy { $0 == "143" }, "\(codes) \(seconds)")
    #expect(seconds.allSatisfy { $0 <= 10 }, "\(seconds)")
    print("shutdown seconds: max \(seconds.max() ?? 0), all \(seconds)")
  }

  // Pins: a subscriber that stopped reading cost about 7 MB (every event copied into its
  // own buffer, which grew by doubling), nearly twice the 4 MiB promised, and nothing
  // bounded them together: 300 of them and one burst of events took about 2 GB.
  @Test func stalledSubscribersCostLittleEachAndLittleTogether() async throws {
    let (_, nginx, url) = try Self.slowOrigin()
    defer { nginx.stop() }
    let store = try TemporaryDirectory(prefix: "offlinekit-serve-memory")
    let subscribers = 150
    let output = try await ProcessRunner.run(
      "/usr/bin/python3",
      [Self.script, "memory", ServeBinary.path, store.path, url, "\(subscribers)"], timeout: 300)
    let line = try #require(
      output.stdoutText.split(separator: "\n").first { $0.hasPrefix("baseline=") },
      "\(output.stdoutText)\n\(output.stderrText.suffix(2000))")
    var figures: [String: Int] = [:]
    for pair in line.split(separator: " ") {
      let parts = pair.split(separator: "=")
      figures[String(parts[0])] = Int(parts[1])
    }
    let baseline = try #require(figures["baseline"])
    let peak = try #require(figures["peak"])
    let grown = max(0, peak - baseline)  // KiB
    print(
      "memory: baseline \(baseline) KiB, peak \(peak) KiB, after \(figures["after"] ?? 0) KiB;"
        + " \(grown / subscribers) KiB per stalled subscriber, \(grown) KiB in all")
    // Each burst's events are held once for all subscribers: well under 4 MiB each, and
    // under 64 MiB together (it was about 1 GB here).
    #expect(grown / subscribers < 256, "\(grown / subscribers) KiB per subscriber")
    #expect(grown < 64 << 10, "\(grown) KiB in all")
  }
}
