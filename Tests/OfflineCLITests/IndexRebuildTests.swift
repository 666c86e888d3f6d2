import Foundation
import TestSupport
import TestTiming
import Testing

/// A damaged `index.sqlite` is rebuilt from the contents' manifests: through `offline`, with
/// real nginx and a real HLS stream. Pins issue 11, item 10 ("a damaged index orphans
/// everything": before, the fresh index was empty, downloaded files were orphaned and
/// re-adding their URLs downloaded them again).
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct IndexRebuildTests {
  /// nginx serving `a.bin`, `b.bin`, `c.bin` (256 KiB each), `slow/large.bin` (3 MiB at
  /// 1 MiB/s, the first MiB at once) and an HLS stream under `hls/`, and a store driven through `offline`.
  final class Origin {
    let folder: TemporaryDirectory
    let nginx: NginxServer
    let hls: HLSFixtureFiles
    let bodies: [String: Data]
    var store: URL { folder.url.appending(path: "store") }

    init() async throws {
      folder = try TemporaryDirectory(prefix: "offlinekit-rebuild")
      let www = folder.url.appending(path: "www")
      try FileManager.default.createDirectory(
        at: www.appending(path: "slow"), withIntermediateDirectories: true)
      var bodies: [String: Data] = [:]
      for (index, name) in ["a.bin", "b.bin", "c.bin"].enumerated() {
        bodies[name] = TestData.bytes(count: 256 << 10, seed: UInt64(40 + index))
      }
      bodies["slow/large.bin"] = TestData.bytes(count: 3 << 20, seed: 44)
      for (name, body) in bodies { try body.write(to: www.appending(path: name)) }
      self.bodies = bodies
      hls = try await HLSFixture.tsVariants.make(
        in: www.appending(path: "hls"), segmentDuration: 1, segmentCount: 4)
      nginx = try NginxServer(
        root: www, options: .init(extraLocations: "location /slow/ { limit_rate 1m; }"))
      try nginx.start()
    }

    func url(_ name: String) -> String { nginx.url("/" + name).absoluteString }
    var streamURL: String { nginx.url("/hls" + hls.entryPath).absoluteString }

    func offline(_ arguments: [String], timeout: Double = 60) async throws -> OfflineRun {
      try await InProcessOffline.run(["--store", store.path] + arguments, timeout: timeout)
    }

    func add(_ arguments: [String]) async throws {
      let added = try await offline(["add"] + arguments)
      try #require(added.status == 0, "add: \(added.stderrText)")
    }

    /// `ls --json` as (id → the fields a user compares: title, state, bytes, total).
    func listing() async throws -> (entries: [String: [String]], stderr: String) {
      let listed = try await offline(["ls", "--json"])
      try #require(listed.status == 0, "ls: \(listed.stderrText)")
      let array = try #require(
        try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
      var entries: [String: [String]] = [:]
      for object in array {
        let id = object["id"] as? String ?? ""
        entries[id] = [
          object["title"] as? String ?? "-", object["state"] as? String ?? "",
          "\(object["bytes"] ?? "-")", "\(object["total"] ?? "-")",
        ]
      }
      return (entries, listed.stderrText)
    }

    func file(_ id: String, _ name: String) -> URL {
      StoreFiles.file(name, of: id, in: store)
    }

    /// Leaves content `big` suspended with part of `large.bin` on disk: a run stopped as
    /// SIGINT (Ctrl-C) stops it, inside this process (``InProcessRun``).
    func leaveBigSuspendedPartway() async throws -> Int {
      try await add([url("slow/large.bin"), "--id", "big", "--title", "Big file"])
      let run = InProcessRun(["run", "--quiet"], store: store)
      defer { run.stopIfRunning() }
      let part = file("big", "large.bin.part").path
      var size = 0
      _ = await QueueFixture.poll(seconds: 20) {
        size = (try? FileManager.default.attributesOfItem(atPath: part))?[.size] as? Int ?? 0
        return size > 1 << 20
      }
      try #require(size > 1 << 20, "the part stayed at \(size) bytes")
      await #expect(run.stop(seconds: 20)?.status == InProcessRun.stoppedStatus)
      return (try FileManager.default.attributesOfItem(atPath: part))[.size] as? Int ?? 0
    }

    /// Damages the index as a disk or a careless user would: garbage over it, or cut in half.
    func damageIndex(truncating: Bool) async throws {
      let index = store.appending(path: "index.sqlite")
      if truncating {
        let size = try FileManager.default.attributesOfItem(atPath: index.path)[.size] as! Int
        let handle = try FileHandle(forWritingTo: index)
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
      } else {
        try TestData.bytes(count: 64 << 10, seed: 99).write(to: index)
      }
      try? FileManager.default.removeItem(atPath: index.path + "-wal")
      try? FileManager.default.removeItem(atPath: index.path + "-shm")
    }
  }

  /// Two files and a stream downloaded, one file queued, one suspended partway; the index
  /// garbled (or truncated). Reopened, `ls` shows the same ids, titles, states and sizes;
  /// re-adding a downloaded URL fetches nothing; the suspended one resumes with one range
  /// request from its part's length: nothing on disk is fetched again.
  @Test(arguments: [false, true])
  func aDamagedIndexIsRebuiltFromTheManifestsAndNothingIsFetchedTwice(truncating: Bool) async throws
  {
    let origin = try await Origin()
    try await origin.add([origin.url("a.bin"), "--id", "a", "--title", "File A"])
    try await origin.add([origin.url("b.bin"), "--id", "b"])
    try await origin.add([
      origin.streamURL, "--id", "movie", "--title", "Movie", "--variant", "lowest",
    ])
    let first = try await origin.offline(["run", "--quiet"])
    try #require(first.status == 0, "run: \(first.stderrText)")
    let part = try await origin.leaveBigSuspendedPartway()
    try await origin.add([origin.url("c.bin"), "--id", "queued", "--title", "Queued"])
    let before = try await origin.listing().entries
    #expect(before["a"]?[1] == "downloaded" && before["movie"]?[1] == "downloaded")
    #expect(before["big"]?[1] == "suspended" && before["queued"]?[1] == "downloading")
    // nginx logs the stopped run's request when its connection closes, which under load
    // came after the count was read: the rerun was then blamed for its 200 (seen in CI).
    var requestsBefore = 0
    _ = await QueueFixture.poll(seconds: 10) {
      let log = (try? origin.nginx.accessLog()) ?? []
      requestsBefore = log.count
      return log.contains { $0.uri == "/slow/large.bin" }
    }

    try await origin.damageIndex(truncating: truncating)

    let after = try await origin.listing()
    #expect(after.stderr.contains("damaged"), "\(after.stderr)")
    #expect(after.entries == before, "before: \(before)\nafter: \(after.entries)")
    let readded = try await origin.offline(["add", origin.url("a.bin")])
    #expect(readded.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "a")
    #expect(try await origin.offline(["resume", "big"]).status == 0)
    let run = try await origin.offline(["run", "--quiet"], timeout: 60)
    #expect(run.status == 0, "\(run.stderrText)")

    let final = try await origin.listing().entries
    for id in ["a", "b", "movie", "big", "queued"] { #expect(final[id]?[1] == "downloaded") }
    #expect(
      FileManager.default.contents(atPath: origin.file("big", "large.bin").path)
        == origin.bodies["slow/large.bin"])
    #expect(
      FileManager.default.contents(atPath: origin.file("a", "a.bin").path) == origin.bodies["a.bin"]
    )
    let later = try await origin.nginx.accessLog(minimumCount: requestsBefore + 2).dropFirst(
      requestsBefore)
    #expect(
      !later.contains { $0.uri.hasPrefix("/hls") || $0.uri == "/a.bin" || $0.uri == "/b.bin" })
    let big = later.filter { $0.uri == "/slow/large.bin" }
    #expect(big.count == 1, "\(big)")
    #expect(big.first?.status == 206)
    #expect(big.first?.range == "bytes=\(part)-", "the part was not resumed where it stood")
    #expect(big.first?.bodyBytesSent == Int64((3 << 20) - part), "bytes fetched twice")
    #expect(later.filter { $0.uri == "/c.bin" }.count == 1)
  }

  /// An index deleted by hand (or a rebuild cut short) leaves an empty index beside content
  /// folders: the next command rebuilds it from the manifests by itself.
  @Test func anIndexDeletedByHandIsRebuiltWhenTheStoreOpens() async throws {
    let origin = try await Origin()
    try await origin.add([origin.url("a.bin"), "--id", "a", "--title", "File A"])
    try #require(try await origin.offline(["run", "--quiet"]).status == 0)
    try await origin.add([origin.url("c.bin"), "--id", "queued"])
    let before = try await origin.listing().entries
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(
        atPath: origin.store.appending(path: "index.sqlite").path + suffix)
    }

    let after = try await origin.listing()

    #expect(after.stderr.contains("2 contents were restored"), "\(after.stderr)")
    #expect(after.entries == before)
  }

  /// An older copy of the index put back (a backup): it is healthy and not empty, so
  /// nothing happens by itself; `ls --rebuild` adopts what it lacks, once.
  @Test func lsRebuildAdoptsWhatAnOlderIndexLacks() async throws {
    let origin = try await Origin()
    try await origin.add([origin.url("a.bin"), "--id", "a", "--title", "File A"])
    try #require(try await origin.offline(["run", "--quiet"]).status == 0)
    let index = origin.store.appending(path: "index.sqlite").path
    let backup = origin.folder.url.appending(path: "backup").path
    try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: index + suffix) {
      try FileManager.default.copyItem(atPath: index + suffix, toPath: backup + "/i" + suffix)
    }
    try await origin.add([origin.url("b.bin"), "--id", "b"])
    try #require(try await origin.offline(["run", "--quiet"]).status == 0)
    try await origin.add([origin.url("c.bin"), "--id", "queued", "--title", "Queued"])
    let before = try await origin.listing().entries
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: index + suffix)
    }
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: backup + "/i" + suffix)
    {
      try FileManager.default.copyItem(atPath: backup + "/i" + suffix, toPath: index + suffix)
    }
    #expect(try await origin.listing().entries.keys.sorted() == ["a"])

    let rebuilt = try await origin.offline(["ls", "--json", "--rebuild"])

    #expect(rebuilt.status == 0)
    #expect(rebuilt.stderrText.contains("Restored 2 contents"), "\(rebuilt.stderrText)")
    #expect(try await origin.listing().entries == before)
    await #expect(
      try origin.offline(["ls", "--rebuild"]).stderrText.contains("Restored 0 contents"))
  }

  /// A downloaded file truncated behind our back, then the index lost: its manifest's size
  /// does not check out, so it is not adopted as downloaded; it is queued again (with a note
  /// saying why) and the next run fetches it whole. The other content is adopted.
  @Test func aDownloadedFileOfTheWrongSizeIsNotAdoptedButDownloadedAgain() async throws {
    let origin = try await Origin()
    try await origin.add([origin.url("a.bin"), "--id", "a"])
    try await origin.add([origin.url("b.bin"), "--id", "b"])
    try #require(try await origin.offline(["run", "--quiet"]).status == 0)
    let handle = try FileHandle(forWritingTo: origin.file("a", "a.bin"))
    try handle.truncate(atOffset: 1000)
    try handle.close()
    let requestsBefore = try await origin.nginx.accessLog(minimumCount: 2).count

    try await origin.damageIndex(truncating: false)

    let listed = try await origin.offline(["ls", "--json"])
    let array = try #require(
      try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
    let a = try #require(array.first { $0["id"] as? String == "a" })
    #expect(a["state"] as? String == "downloading")
    #expect((a["lastError"] as? String)?.contains("1000 bytes") == true, "\(a)")
    #expect(array.first { $0["id"] as? String == "b" }?["state"] as? String == "downloaded")
    #expect(try await origin.offline(["run", "--quiet"]).status == 0)
    #expect(
      FileManager.default.contents(atPath: origin.file("a", "a.bin").path) == origin.bodies["a.bin"]
    )
    let later = try await origin.nginx.accessLog(minimumCount: requestsBefore + 1).dropFirst(
      requestsBefore)
    #expect(later.map(\.uri) == ["/a.bin"])
    #expect(later.first?.range == nil && later.first?.status == 200)
  }

}
