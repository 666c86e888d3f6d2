import Foundation
import TestSupport
import Testing

/// A folder of a stream moved away and replaced by a symbolic link while the stream
/// downloads (issue 36, item 7). The folders were checked once before the run, but each
/// piece, part and playlist was then opened and renamed by its path, so the pieces that came
/// after the swap went through the link into the folder it names.
@Suite(
  .ownThreads,
  .serialized, .enabled(if: FFmpeg.isAvailable),
  .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "needs /proc"))
struct LinkSwappedDuringRunTests {
  /// Pins issue 36, item 7 during a run: a link swapped in for `video/` after the run made
  /// and checked its folders, before any piece (the `pieces.afterFolders` stop point), got
  /// every piece written into the folder it names. Now the pieces go into the folder the
  /// run opened, nothing goes through the link, and the run fails naming it.
  @Test func aFolderLinkedAwayDuringARunIsNeverWrittenThrough() async throws {
    let origin = try await HLSOrigin(.tsVariants)
    let work = try TemporaryDirectory()
    let victim = try LinkedSubfolderTests.Victim(in: work)
    let store = work.url.appending(path: "store")
    let offline = { (arguments: [String]) async throws in
      try await OfflineBinary.run(["--store", store.path] + arguments, timeout: 60)
    }
    #expect(try await offline(["add", origin.url.absoluteString, "--id", "s"]).status == 0)
    let inside = store.appending(path: "content/s/video")
    var environment = ProcessInfo.processInfo.environment
    environment["OFFLINEKIT_STOP_POINT"] = "pieces.afterFolders"
    let run = try OfflineBinary.start(["run", "--quiet"], store: store, environment: environment)
    defer { run.killIfRunning() }
    let stopped = await QueueFixture.poll(seconds: 30) { Self.isStopped(run.processIdentifier) }
    try #require(stopped, "the run never reached its stop point")
    let moved = work.url.appending(path: "moved")
    try FileManager.default.moveItem(at: inside, to: moved)
    try FileManager.default.createSymbolicLink(at: inside, withDestinationURL: victim.folder)
    kill(run.processIdentifier, SIGCONT)

    await #expect(run.waitBounded(seconds: 60) == 1)
    victim.expectUntouched()
    let listed = try await offline(["ls", "--json"])
    #expect(
      listed.stdoutText.contains("\(inside.path) is a symbolic link where a folder"),
      "\(listed.stdoutText)")
    // The pieces went on into the folder the run opened, wherever it was moved.
    let pieces = try FileManager.default.contentsOfDirectory(atPath: moved.path)
    #expect(pieces.contains { $0.hasSuffix(".ts") }, "\(pieces)")
  }

  /// Whether process `pid` is stopped (`T` in `/proc/<pid>/stat`).
  static func isStopped(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
  }
}

extension LinkSwappedDuringRunTests {
  /// Pins issue 36, item 7 for a stream's repair: the content's folder moved out of the
  /// store and replaced by a link to a folder holding a `pack.ts` of its own, after the
  /// repair found the damaged segment of its pack (the `repair.beforeMendingPacks` stop
  /// point), had the segment written into that other `pack.ts`. Now the repair writes into
  /// the folder it opened and fails naming the link.
  @Test func aContentFolderLinkedAwayDuringAPackRepairIsNeverWrittenThrough() async throws {
    let stream = try await StreamRepairCommandTests.Downloaded(.pack)
    let index = stream.folder.appending(path: "index.m3u8")
    let range = try #require(try OfflineSegments.list(index)[2].range)
    let pack = stream.folder.appending(path: "pack.ts").path
    try FileDamage.flipByte(at: Int64(range.lowerBound + 10), of: pack)
    let victim = stream.www.url.appending(path: "victim")
    try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
    let decoy = Data(count: try Data(contentsOf: URL(filePath: pack)).count)
    try decoy.write(to: victim.appending(path: "pack.ts"))
    var environment = ProcessInfo.processInfo.environment
    environment["OFFLINEKIT_STOP_POINT"] = "repair.beforeMendingPacks"
    let repair = try OfflineBinary.start(
      ["repair", "c"], store: stream.store, environment: environment)
    defer { repair.killIfRunning() }
    let stopped = await QueueFixture.poll(seconds: 30) { Self.isStopped(repair.processIdentifier) }
    try #require(stopped, "the repair never reached its stop point")
    try FileManager.default.moveItem(
      at: stream.folder, to: stream.www.url.appending(path: "moved"))
    try FileManager.default.createSymbolicLink(at: stream.folder, withDestinationURL: victim)
    kill(repair.processIdentifier, SIGCONT)

    await #expect(repair.waitBounded(seconds: 60) == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == ["pack.ts"])
    #expect(try Data(contentsOf: victim.appending(path: "pack.ts")) == decoy, "written through")
  }
}
