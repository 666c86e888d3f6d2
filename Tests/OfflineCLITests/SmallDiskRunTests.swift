import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline run` on a small disk (issue 11, item 11): `--min-free` sets the margin, and a
/// content that cannot fit even on the empty disk ends the run instead of waiting forever.
@Suite(.serialized, .enabled(if: getuid() == 0), .ownThreads, .timed)
struct SmallDiskRunTests {
  /// Pins issue 11, item 11: with the fixed 64 MiB margin a small file on a 2 MiB disk
  /// waited forever; now the run ends (exit 1) saying how many bytes it needs, and
  /// `--min-free` lets the same file download.
  @Test func aContentThatCannotFitEndsTheRunAndASmallerMarginDownloadsIt() async throws {
    let fixture = try QueueFixture()
    // The folder the file goes to (the store's shared `files/`) is on the small disk.
    let content = fixture.store.appending(path: "files")
    try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
    let mount = try await ProcessRunner.run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", content.path], timeout: 10)
    try #require(mount.status == 0, "mount failed: \(mount.stderrText)")
    defer { _ = umount2(content.path, Int32(MNT_DETACH)) }  // no child process in a defer
    let id = try await fixture.addOne([fixture.url("small.bin")])

    let refused = try await fixture.offline(["run"], timeout: 30)
    #expect(refused.status == 1, "\(refused.stderrText)")
    #expect(refused.stderrText.contains("more bytes than the file system"), "\(refused.stderrText)")
    #expect(refused.stderrText.components(separatedBy: "waiting (storage)").count <= 2)
    #expect(try await fixture.entry(id)?.state == "suspended")

    #expect(try await fixture.offline(["resume", id]).status == 0)
    let run = try await fixture.offline(["run", "--min-free", "256K"], timeout: 30)
    #expect(run.status == 0, "\(run.stderrText)")
    let done = try #require(try await fixture.entry(id))
    #expect(done.state == "downloaded")
    #expect(FileManager.default.contents(atPath: done.path) == fixture.small)
  }

  /// Issue 11, item 11: `get --min-free` refuses, before writing anything, a file that
  /// would leave less than the margin free or that the disk could never hold.
  @Test func getWithMinFreeRefusesAFileThatWouldNotLeaveTheMargin() async throws {
    let fixture = try QueueFixture()
    let out = fixture.folder.url.appending(path: "out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let mount = try await ProcessRunner.run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", out.path], timeout: 10)
    try #require(mount.status == 0, "mount failed: \(mount.stderrText)")
    defer { _ = umount2(out.path, Int32(MNT_DETACH)) }  // no child process in a defer
    try Data(count: 1 << 20).write(to: out.appending(path: "junk.bin"))

    let tooLarge = try await fixture.offline(
      ["get", fixture.url("large.bin"), "-o", out.path + "/", "--min-free", "0"])
    #expect(tooLarge.status == 1)
    #expect(
      tooLarge.stderrText.contains("more bytes than the file system"), "\(tooLarge.stderrText)")
    let tight = try await fixture.offline(
      ["get", fixture.url("small.bin"), "-o", out.path + "/", "--min-free", "1M"])
    #expect(tight.status == 1)
    #expect(tight.stderrText.contains("more bytes of free space"), "\(tight.stderrText)")
    let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
    #expect(written == ["junk.bin"], "nothing was written: \(written)")

    let fits = try await fixture.offline(
      ["get", fixture.url("small.bin"), "-o", out.path + "/", "--min-free", "512K"])
    #expect(fits.status == 0, "\(fits.stderrText)")
    #expect(FileManager.default.contents(atPath: out.path + "/small.bin") == fixture.small)
  }

  /// `--min-free` takes sizes as `cache limit` does, and refuses anything else.
  @Test func minFreeRefusesWhatIsNotASize() async throws {
    let fixture = try QueueFixture()
    let result = try await fixture.offline(["run", "--min-free", "lots"])
    #expect(result.status == 64)
    #expect(result.stderrText.contains("--min-free takes a size"), "\(result.stderrText)")
  }
}
