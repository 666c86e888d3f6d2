import Foundation
import TestSupport
import TestTiming
import Testing

/// Several `offline` processes meeting on one store or one destination: a run that another
/// process adds to, pauses, cancels, gives a new URL or deletes under; a second run, a second
/// `get` of the same file or folder, and `cache get` from several processes at once. Each
/// pins what one process sees of another (its lock, its pid in a message, its changes through
/// the store), so the first command is a real process; the second runs in-process where its
/// own process does not matter.
@Suite(.ownThreads, .timed) struct SeveralProcessesTests {
  /// A CLI process running in the background, its output going to files.
  final class Background {
    let process = Process()
    let stdout: URL
    let stderr: URL

    init(_ arguments: [String], store: URL, logs: URL) throws {
      stdout = logs.appending(path: "\(UUID().uuidString).out")
      stderr = logs.appending(path: "\(UUID().uuidString).err")
      _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
      _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
      process.executableURL = URL(fileURLWithPath: OfflineBinary.path)
      process.arguments = ["--store", store.path] + arguments
      process.standardOutput = try FileHandle(forWritingTo: stdout)
      process.standardError = try FileHandle(forWritingTo: stderr)
      try process.run()
    }

    /// Waits (at most `seconds`) for the process to end; its status and what it wrote.
    func finish(seconds: Double = 60) async -> (status: Int32, stdout: String, stderr: String) {
      let status = await process.waitBounded(seconds: seconds)
      let out = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
      let err = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
      return (status, out, err)
    }
  }

  /// Waits (bounded) until the part file at `path` has bytes.
  static func waitForBytes(_ path: String) async throws {
    for _ in 0..<200 {
      let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
      if size > 0 { return }
      try await Task.sleep(for: .milliseconds(25))
    }
    Issue.record("no bytes arrived at \(path)")
  }

  // Moved from QueueRunTests.
  @Test func aRunningRunDownloadsWhatAnotherProcessAdds() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let (slow, run) = try await fixture.runningLargeDownload(moreThan: 0)
    defer { run.killIfRunning() }

    let added = try await fixture.addOne([fixture.url("small.bin")])
    let done = try await fixture.waitFor(added, state: "downloaded", seconds: 20)
    #expect(done?.state == "downloaded")
    #expect(run.isRunning)
    if let done {
      #expect(FileManager.default.contents(atPath: done.path) == fixture.small)
    }

    #expect(try await fixture.offline(["cancel", slow]).status == 0)
    await #expect(run.waitBounded(seconds: 10) == 0)
  }

  @Test func aSecondRunOnTheSameStoreIsRefusedWhileOneWorks() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let (id, run) = try await fixture.runningLargeDownload(moreThan: 0)
    defer { run.killIfRunning() }

    let second = try await fixture.offline(["run", "--quiet"])
    #expect(second.status == 1)
    #expect(second.stderrText.contains("\(run.processIdentifier)"), "\(second.stderrText)")

    #expect(try await fixture.offline(["cancel", id]).status == 0)
    await #expect(run.waitBounded(seconds: 10) == 0)
  }

  // Pins a bug: opening the store (`OfflineManager.init`, so every `ls`, `add`, `pause`...)
  // takes the runner lock for its crash recovery, so an `offline run` starting at that moment
  // failed with "Another process is running the queue" although no process was running it.
  @Test func aRunIsNotRefusedBecauseAnotherCommandIsOpeningTheStore() async throws {
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([fixture.url("small.bin")])
    #expect(try await fixture.offline(["pause", id]).status == 0)
    let listing = try Process.run(
      URL(fileURLWithPath: "/bin/sh"),
      arguments: [
        "-c",
        "end=$(($(date +%s) + 10)); while [ $(date +%s) -lt $end ]; do"
          + " '\(OfflineBinary.path)' --store '\(fixture.store.path)' ls >/dev/null; done",
      ])
    defer { listing.killIfRunning() }

    var refusals: [String] = []
    for _ in 0..<60 where refusals.isEmpty && listing.isRunning {
      let run = try await fixture.offline(["run", "--quiet"])
      if run.status != 0 { refusals.append(run.stderrText) }
    }
    #expect(refusals.isEmpty, "a run was refused: \(refusals)")
  }

  // Moved from GetTrustTests.
  // Pins: a second get of the same output emptied the part the first was writing; the first
  // renamed a file with a hole of zeros and printed the expected SHA-256, exit 0.
  @Test func aSecondGetOfTheSameOutputFailsAtOnceNamingTheFirst() async throws {
    let setup = try GetTrustTests.Setup()
    let output = setup.out.appending(path: "same.bin").path
    let sha = await setup.sha
    let first = try Background(
      ["get", setup.url("/slow/file.bin"), "-o", output, "--sha256", sha],
      store: setup.store("a"),
      logs: setup.folder.url)
    try await Self.waitForBytes(output + ".part")
    let second = try await InProcessOffline.run(
      ["get", setup.url("/slow/file.bin"), "-o", output], store: setup.store("b"), in: setup.out)
    let firstEnd = await first.finish()

    #expect(second.status == 1)
    #expect(
      second.stderrText.contains("pid \(first.process.processIdentifier)"), "\(second.stderrText)")
    #expect(second.stderrText.contains("--wait"))
    #expect(firstEnd.status == 0, "\(firstEnd.stderr)")
    #expect(FileManager.default.contents(atPath: output) == setup.body)
  }

  @Test func aSecondGetWithWaitWaitsAndFindsTheFileComplete() async throws {
    let setup = try GetTrustTests.Setup()
    let output = setup.out.appending(path: "same.bin").path
    let first = try Background(
      ["get", setup.url("/slow/file.bin"), "-o", output], store: setup.store(),
      logs: setup.folder.url)
    try await Self.waitForBytes(output + ".part")
    let second = try await InProcessOffline.run(
      ["get", setup.url("/slow/file.bin"), "-o", output, "--wait"], store: setup.store(),
      in: setup.out)
    let firstEnd = await first.finish()

    #expect(firstEnd.status == 0, "\(firstEnd.stderr)")
    #expect(second.status == 0, "\(second.stderrText)")
    #expect(second.stderrText.contains("Already complete"), "\(second.stderrText)")
    #expect(FileManager.default.contents(atPath: output) == setup.body)
    #expect(!FileManager.default.fileExists(atPath: output + ".part"))
    #expect(try await setup.nginx.accessLog(minimumCount: 1).count == 1)
  }

  // Pins: concurrent `cache get` from several processes returned a mixed file, or failed with
  // "Could not rename".
  @Test func concurrentCacheGetsFromSeveralProcessesAllGetTheOneCorrectFile() async throws {
    let setup = try GetTrustTests.Setup()
    let callers = try (0..<4).map { _ in
      try Background(
        ["cache", "get", setup.url("/slow/file.bin")], store: setup.store(), logs: setup.folder.url)
    }
    var ends: [(status: Int32, stdout: String, stderr: String)] = []
    for caller in callers { ends.append(await caller.finish()) }
    for end in ends {
      #expect(end.status == 0, "\(end.stderr)")
      let path = end.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(path == ends[0].stdout.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(FileManager.default.contents(atPath: path) == setup.body)
    }
  }

  // Moved from URLRefreshCommandTests.
  /// Pins: no way to give a queued content a fresh URL. `set-url` in another terminal
  /// reaches the running `run` within a second; it resumes from the new URL (`If-Range`),
  /// fetching less than 5 % twice.
  @Test func setURLReachesARunningRunWhichResumesFromTheNewURL() async throws {
    let setup = try URLRefreshCommandTests.Setup()
    // Valid throughout: what is pinned is that `set-url` reaches the run, not an expiry
    // (nginx checks a token only when a request starts, so one expiring mid-response
    // changes nothing here; it only made the test wait).
    let expiring = try setup.origin.signedURL(URLRefreshCommandTests.path, expiresIn: 600)
    let added = try await setup.offline([
      "add", expiring.absoluteString, "--id", "big", "--connections", "1",
    ])
    #expect(added.status == 0, "\(added.stderrText)")
    let run = try OfflineBinary.start(["run", "--quiet"], store: setup.store)
    defer { if run.isRunning { kill(run.processIdentifier, SIGKILL) } }
    #expect(
      try await URLRefreshCommandTests.eventually { try await setup.listedBytes("big") > 300_000 })
    let fresh = try setup.origin.signedURL(URLRefreshCommandTests.path, expiresIn: 900)
    let set = try await setup.offline(["set-url", "big", fresh.absoluteString])
    #expect(set.status == 0, "\(set.stderrText)")
    await #expect(run.waitBounded(seconds: 30) == 0)
    let file = StoreFiles.file("big.bin", of: "big", in: setup.store).path
    #expect(FileManager.default.contents(atPath: file) == URLRefreshCommandTests.body)
    let log = try setup.origin.server.accessLog()
    #expect(log.contains { $0.uri.contains(fresh.query ?? "-") && $0.status == 206 })
    let twice = try await setup.fetchedTwice()
    #expect(twice < Int64(URLRefreshCommandTests.body.count) / 20, "\(twice) bytes fetched twice")
  }

  // Moved from LeftoverFileTests.
  /// Pins issue 36, item 13: `rm` while another process repaired the content left an empty
  /// file of the content's name in `files/` (the repair made it to write its chunks in), and
  /// the repair's refusal said "not downloaded, not downloaded".
  @Test func rmDuringAnotherProcesssRepairLeavesNoFileAndTheRepairSaysWhy() async throws {
    let (fixture, path) = try await VerifyCommandTests.downloaded(limitRate: "1m")
    try #require(truncate(path, 1 << 20) == 0)
    let log = fixture.folder.url.appending(path: "repair.log")
    try Data().write(to: log)
    let errors = try FileHandle(forWritingTo: log)
    let repair = Process()
    repair.executableURL = URL(fileURLWithPath: OfflineBinary.path)
    repair.arguments = ["--store", fixture.store.path, "repair", "big"]
    repair.standardOutput = FileHandle.nullDevice
    repair.standardError = errors
    try repair.run()
    defer { repair.killIfRunning() }
    // While the first damaged chunk arrives (4 MiB at 1 MiB/s).
    _ = await QueueFixture.poll(seconds: 20) {
      FileManager.default.fileExists(atPath: path + ".chunk0.part")
    }
    try? await Task.sleep(for: .microseconds(300_000))

    let removed = try await fixture.offline(["rm", "big"])
    #expect(removed.status == 0, "\(removed.stderrText)")
    await #expect(repair.waitBounded(seconds: 30) == 1)
    try errors.close()

    let folder = (path as NSString).deletingLastPathComponent
    let left = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    #expect(left.isEmpty, "left in files/: \(left)")
    let said = String(decoding: try Data(contentsOf: log), as: UTF8.self)
    #expect(said.contains("it is not downloaded."), "\(said)")
    #expect(!said.contains("not downloaded, not downloaded"), "\(said)")
  }

  // Moved from StreamCommandTests.
  // Pins issue 11, item 1 for streams: two gets of one stream into one folder raced on its
  // keys, pieces and playlists. The second fails at once naming the first.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func aSecondGetOfAStreamIntoTheSameFolderFailsAtOnce() async throws {
    let origin = try await HLSOrigin(
      .manySegments, segmentCount: 60, options: .init(limitRate: "8k"))
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "movie")
    let first = try OfflineBinary.start(
      ["get", origin.url.absoluteString, "-o", out.path, "--quiet"],
      store: work.url.appending(path: "a"))
    defer { first.killIfRunning() }
    let started = await QueueFixture.poll(seconds: 20) {
      (try? FileManager.default.contentsOfDirectory(atPath: out.path).count) ?? 0 > 1
    }
    #expect(started)
    let second = try await InProcessOffline.run(
      [
        "--store", work.url.appending(path: "b").path, "get", origin.url.absoluteString, "-o",
        out.path,
      ])

    #expect(second.status == 1)
    #expect(second.stderrText.contains("pid \(first.processIdentifier)"), "\(second.stderrText)")
    #expect(second.stderrText.contains("downloading to \(out.path);"), "the folder, not a piece")
    await #expect(first.waitBounded(seconds: 60) == 0)
    #expect(try await FFmpeg.decode(out.path + "/index.m3u8").errors.isEmpty)
  }
}
