import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline` killed with SIGKILL, as a crash or an out-of-memory kill would strike: at random
/// moments of a `get` (on curl and on URLSession) or of a `run` racing cancels and deletes,
/// mid-download before a lost index or a lost write-ahead log, and mid-repair. Every rerun
/// of the same command resumes, the file ends byte-identical, little is fetched twice and
/// nothing cancelled comes back. A kill needs a real process; the command that finishes the
/// job runs in-process where its process does not matter.
@Suite(.ownThreads, .timed) struct KilledRunTests {
  // Moved from CrashResumeTests.
  @Test func randomKillsLoseNothingAndRefetchLittle() async throws {
    let size = 64 << 20
    let setup = try GetCommandTests.Setup(size: size, options: .init(limitRate: "16m"))
    let arguments = try await setup.verifiedGet() + ["--quiet"]
    let kills = try await OfflineBinary.killRepeatedly(
      arguments, store: setup.store, times: 12, pause: 100_000...350_000)
    #expect(kills >= 10)

    let last = try await OfflineBinary.run(["--store", setup.store.path] + arguments, timeout: 120)
    #expect(last.status == 0, "\(last.stderrText)")
    #expect(FileManager.default.contents(atPath: setup.output) == setup.body)

    let refetched = try await setup.bodyBytesSent() - Int64(size)
    // Each kill may lose what sat in socket buffers and our write buffer (nginx counts
    // bytes it handed to the socket as sent: 700 KiB per kill on a loaded machine), never
    // what reached the part file: trusting only the last durable checkpoint would lose up
    // to a second's worth (16 MiB) per kill, a restart all of it. A bound of size/8 for all
    // kills together failed twice in CI under load (8.25 and 11.1 MB over 12 kills), and
    // 1 MiB per kill once in a full run (13.2 MB over 12; 8 quiet runs of the same build:
    // 7.1-9.3 MB, of 6c424af's: 6.9-10.9 MB). 1.5 MiB per kill is still a tenth of what
    // trusting only the checkpoint would lose.
    #expect(
      refetched < Int64(kills) * (3 << 19),
      "fetched \(refetched) bytes twice over \(kills) kills")
  }

  /// The same with four connections: each range resumes where the killed process left it
  /// (the mapped progress file), so little is fetched twice here too.
  @Test func randomKillsOfASegmentedDownloadRefetchLittle() async throws {
    let size = 48 << 20
    let setup = try GetCommandTests.Setup(size: size, options: .init(limitRate: "4m"))
    let arguments = try await setup.verifiedGet() + ["--connections", "4", "--quiet"]
    try await OfflineBinary.killRepeatedly(
      arguments, store: setup.store, times: 10, pause: 200_000...500_000)
    let last = try await OfflineBinary.run(["--store", setup.store.path] + arguments, timeout: 120)
    #expect(last.status == 0, "\(last.stderrText)")
    #expect(FileManager.default.contents(atPath: setup.output) == setup.body)
    let sent = try await setup.bodyBytesSent()
    #expect(sent - Int64(size) < Int64(size) / 8, "fetched \(sent - Int64(size)) bytes twice")
  }

  // Moved from URLSessionCrashResumeTests.
  @Test func randomKillsOfAURLSessionDownloadLoseNothing() async throws {
    let size = 32 << 20
    let setup = try GetCommandTests.Setup(size: size, options: .init(limitRate: "16m"))
    let arguments = try await setup.verifiedGet()
    let kills = try await OfflineBinary.killRepeatedly(
      arguments + ["--quiet"], store: setup.store, times: 6, pause: 150_000...400_000,
      environment: URLSessionCrashResumeTests.environment)
    #expect(kills >= 4)

    let last = try await ProcessRunner.run(
      OfflineBinary.path, ["--store", setup.store.path] + arguments + ["--json"], timeout: 120,
      environment: URLSessionCrashResumeTests.environment)
    #expect(last.status == 0, "\(last.stderrText)")
    #expect(FileManager.default.contents(atPath: setup.output) == setup.body)
    let log = try await setup.nginx.accessLog(minimumCount: 2)
    #expect(log.dropFirst().contains { $0.range != nil }, "a rerun resumed with Range")
  }

  // Moved from RunCrashTests.
  /// One content of `offline ls --json`: what the run-crash test compares.
  struct Item: Decodable {
    let id: String
    let state: String
    let path: String
  }

  @Test func killsDuringCancelsAndDeletesLoseNothingAndResurrectNothing() async throws {
    let count = 8
    let folder = try TemporaryDirectory()
    let www = folder.url.appending(path: "www")
    try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
    var hashes: [String: String] = [:]
    for index in 0..<count {
      let body = TestData.bytes(count: 4 << 20, seed: UInt64(100 + index))
      try body.write(to: www.appending(path: "f\(index).bin"))
      hashes["f\(index)"] = try await TestData.sha256Hex(of: body)
    }
    let nginx = try NginxServer(root: www, options: .init(limitRate: "2m"))
    try nginx.start()
    let store = folder.url.appending(path: "store")
    func offline(_ arguments: [String]) async throws -> ProcessRunner.Output {
      try await OfflineBinary.run(["--store", store.path] + arguments, timeout: 60)
    }
    for index in 0..<count {
      let added = try await offline([
        "add", nginx.url("/f\(index).bin").absoluteString, "--id", "f\(index)", "--sha256",
        hashes["f\(index)"]!,
      ])
      #expect(added.status == 0)
    }

    var gone = Set<String>()  // cancelled or deleted: must never come back
    var generator = SystemRandomNumberGenerator()
    for round in 0..<30 {
      let runner = try OfflineBinary.start(["run", "--quiet"], store: store)
      try await Task.sleep(
        for: .microseconds(UInt32.random(in: 50_000...400_000, using: &generator)))
      if round % 4 == 1 {
        // Cancel or delete one content from another process, racing the kill below.
        let items = try await list(offline)
        if let target = items.first(where: {
          !gone.contains($0.id) && ["downloading", "suspended"].contains($0.state)
        }) {
          if try await offline(["cancel", target.id]).status == 0 { gone.insert(target.id) }
        } else if let target = items.first(where: {
          !gone.contains($0.id) && $0.state == "downloaded"
        }) {
          if try await offline(["rm", target.id]).status == 0 { gone.insert(target.id) }
        }
      }
      kill(runner.processIdentifier, SIGKILL)
      _ = await runner.waitBounded(seconds: 10)
    }

    let last = try await offline(["run", "--quiet"])
    #expect(last.status == 0, "\(last.stderrText)")
    let items = try await list(offline)
    #expect(items.count == count)
    for item in items {
      #expect(item.state != "canceling", "\(item.id) stuck in canceling")
      let folderPath = (item.path as NSString).deletingLastPathComponent
      if gone.contains(item.id) {
        #expect(item.state == "notDownloaded", "\(item.id) came back as \(item.state)")
        // Its own folder gone; a flat file (in the shared `files/`) gone with its part.
        let own = (folderPath as NSString).lastPathComponent == item.id
        for path in own ? [folderPath] : [item.path, item.path + ".part"] {
          #expect(!FileManager.default.fileExists(atPath: path), "\(item.id) left \(path)")
        }
      } else {
        #expect(item.state == "downloaded", "\(item.id) is \(item.state)")
        #expect(
          try await TestData.sha256Hex(of: URL(fileURLWithPath: item.path)) == hashes[item.id],
          "\(item.id) is corrupt")
      }
    }
    #expect(!gone.isEmpty, "the test cancelled or deleted nothing")
  }

  /// The contents `offline ls --json` lists, run through `offline`.
  private func list(_ offline: ([String]) async throws -> ProcessRunner.Output) async throws
    -> [Item]
  {
    let output = try await offline(["ls", "--json"])
    return try JSONDecoder().decode([Item].self, from: output.stdout)
  }

  // Moved from IndexRebuildTests.
  /// A run SIGKILLed mid-download (the content `downloading`, its part without a manifest
  /// journal entry), then the index lost: the content comes back queued, and the next run
  /// starts its part over from 0 rather than trust bytes no journal vouches for. The price
  /// is the part's bytes, fetched twice; the file ends byte-exact.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func aDownloadKilledMidwayComesBackQueuedAndRestartsCleanly() async throws {
    let origin = try await IndexRebuildTests.Origin()
    try await origin.add([origin.url("slow/large.bin"), "--id", "big"])
    let run = Process()
    run.executableURL = URL(fileURLWithPath: OfflineBinary.path)
    run.arguments = ["--store", origin.store.path, "run", "--quiet"]
    run.standardOutput = FileHandle.nullDevice
    run.standardError = FileHandle.nullDevice
    try run.run()
    defer { run.killIfRunning() }
    let part = origin.file("big", "large.bin.part").path
    _ = await QueueFixture.poll(seconds: 20) {
      ((try? FileManager.default.attributesOfItem(atPath: part))?[.size] as? Int ?? 0) > 1 << 20
    }
    kill(run.processIdentifier, SIGKILL)
    _ = await run.waitBounded(seconds: 10)
    let requestsBefore = try await origin.nginx.accessLog(minimumCount: 1).count

    try await origin.damageIndex(truncating: false)

    #expect(try await origin.listing().entries["big"]?[1] == "downloading")
    let again = try await origin.offline(["run", "--quiet"], timeout: 60)
    #expect(again.status == 0, "\(again.stderrText)")
    #expect(
      FileManager.default.contents(atPath: origin.file("big", "large.bin").path)
        == origin.bodies["slow/large.bin"])
    let later = try await origin.nginx.accessLog(minimumCount: requestsBefore + 1).dropFirst(
      requestsBefore)
    #expect(later.count == 1)
    #expect(later.first?.range == nil && later.first?.status == 200, "\(later)")
  }

  // Moved from VerifyCommandTests.
  @Test func aRepairSIGKILLedWhileFetchingIsFinishedByTheNextRepair() async throws {
    let (fixture, path) = try await VerifyCommandTests.downloaded(limitRate: "1m")
    try #require(truncate(path, 1 << 20) == 0)
    let before = try fixture.nginx.accessLog().count
    let repair = try OfflineBinary.start(["repair", "big"], store: fixture.store)
    // Killed while a chunk arrives (4 MiB at 1 MiB/s).
    _ = await QueueFixture.poll(seconds: 20) {
      FileManager.default.fileExists(atPath: path + ".chunk0.part")
        || FileManager.default.fileExists(atPath: path + ".chunk1.part")
    }
    try? await Task.sleep(for: .microseconds(500_000))
    kill(repair.processIdentifier, SIGKILL)
    _ = await repair.waitBounded(seconds: 10)
    let again = try await fixture.offline(["repair", "big"], timeout: 60)
    #expect(again.status == 0, "\(again.stderrText)")
    #expect(FileManager.default.contents(atPath: path) == fixture.large)
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: (path as NSString).deletingLastPathComponent
    ).filter { $0.hasSuffix(".part") }
    #expect(leftovers.isEmpty, "\(leftovers)")
    // The damaged chunks (0, cut short, and 1, gone) plus at most the one the kill cut.
    let sent = try fixture.nginx.accessLog().dropFirst(before).reduce(0) { $0 + $1.bodyBytesSent }
    #expect(sent <= (8 << 20) + (4 << 20), "\(sent)")
  }

  // Moved from FaultNameAndIndexTests.
  /// Matrix row "a missing WAL": a run killed mid-download, then the index's `-wal` and
  /// `-shm` deleted (the commits they held are lost). The next `get` opens the index,
  /// trusts no more than what is recorded, and finishes the file byte-exact.
  @Test func anIndexWhoseWALWentMissingStillFinishesTheFileExactly() async throws {
    let setup = try GetCommandTests.Setup(size: 8 << 20, options: .init(limitRate: "4m"))
    let url = setup.nginx.url("/file.bin").absoluteString
    let output = setup.out.appending(path: "file.bin").path
    let sha = try await TestData.sha256Hex(of: setup.body)
    let process = try OfflineBinary.start(
      ["get", url, "-o", output, "--quiet", "--sha256", sha], store: setup.store)
    defer {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    var size = 0
    for _ in 0..<400 where size < 1 << 20 {
      try? await Task.sleep(for: .microseconds(25_000))
      size =
        (try? FileManager.default.attributesOfItem(atPath: output + ".part"))?[.size]
        as? Int ?? 0
    }
    try #require(size >= 1 << 20)
    kill(process.processIdentifier, SIGKILL)
    _ = await process.waitBounded(seconds: 10)
    let index = setup.store.appending(path: "index.sqlite").path
    #expect(FileManager.default.fileExists(atPath: index + "-wal"))
    try? FileManager.default.removeItem(atPath: index + "-wal")
    try? FileManager.default.removeItem(atPath: index + "-shm")

    let again = try await InProcessOffline.run(
      ["get", url, "-o", output, "--quiet", "--sha256", sha], store: setup.store, in: setup.out)
    #expect(again.status == 0, "\(again.stderrText)")
    #expect(FileManager.default.contents(atPath: output) == setup.body)
    #expect(!FileManager.default.fileExists(atPath: output + ".part"))
  }
}
