import Foundation
import TestSupport
import TestTiming
import Testing

/// What a user runs to find what to delete when the disk holding the store is full (issue
/// 36, item 12): `ls`, `ls --json` and `rm` keep working, and what cannot be written says
/// that the disk is full.
@Suite(.serialized, .enabled(if: getuid() == 0), .ownThreads, .timed)
struct FullDiskCommandTests {
  /// A queue fixture whose whole store (index and content) is on a 4 MiB tmpfs, with
  /// `small.bin` downloaded as `a`; the caller unmounts it.
  static func storeOnASmallDisk() async throws -> (QueueFixture, TmpfsMountPoint) {
    let fixture = try QueueFixture()
    let mount = try await TmpfsMountPoint(at: fixture.store, megabytes: 4)
    _ = try await fixture.add([fixture.url("small.bin"), "--id", "a"])
    let run = try await fixture.offline(["run", "--quiet", "--min-free", "0"], timeout: 60)
    try #require(run.status == 0, "\(run.stderrText)")
    return (fixture, mount)
  }

  /// Pins issue 36, item 12: on a full disk `ls` and `rm` failed with "disk I/O error,
  /// SQLite code 4874 ... check the disk" (the index's `-shm` could not be sized), so the
  /// commands a user runs to make room did not work.
  @Test func lsAndRmWorkOnAFullDiskAndWhatCannotBeWrittenSaysTheDiskIsFull() async throws {
    let (fixture, mount) = try await Self.storeOnASmallDisk()
    defer { mount.unmount() }
    mount.fill()

    let list = try await fixture.offline(["ls"])
    #expect(list.status == 0, "\(list.stderrText)")
    #expect(list.stdoutText.contains("downloaded"), "\(list.stdoutText)")
    let json = try await fixture.offline(["ls", "--json"])
    #expect(json.status == 0, "\(json.stderrText)")
    #expect(json.stdoutText.contains("\"id\":\"a\""), "\(json.stdoutText)")

    let add = try await fixture.offline(["add", fixture.url("large.bin"), "--id", "b"])
    #expect(add.status == 1)
    #expect(add.stderrText.contains("the disk is full"), "\(add.stderrText)")
    #expect(!add.stderrText.contains("check the disk"), "\(add.stderrText)")

    let removed = try await fixture.offline(["rm", "a"])
    #expect(removed.status == 0, "\(removed.stderrText)")
    let after = try await fixture.offline(["ls", "--json"])
    #expect(after.stdoutText.contains("\"state\":\"notDownloaded\""), "\(after.stdoutText)")
    let file = StoreFiles.file("small.bin", of: "a", in: fixture.store).path
    #expect(!FileManager.default.fileExists(atPath: file))
  }
}

/// A tmpfs mounted at a folder for one test (as root); ``fill()`` leaves it without a free
/// byte. Unmount it even when the test fails.
struct TmpfsMountPoint {
  let path: URL

  init(at path: URL, megabytes: Int) async throws {
    try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
    let result = try await ProcessRunner.run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path.path], timeout: 10)
    try #require(result.status == 0, "mount failed: \(result.stderrText)")
    self.path = path
  }

  /// Writes a file of zeros until the file system refuses a byte more.
  func fill() {
    let fd = open(path.appending(path: "filler").path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let block = [UInt8](repeating: 0, count: 4096)
    while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
    var byte: UInt8 = 0
    while write(fd, &byte, 1) == 1 {}
  }

  /// Detaches the mount at once (`umount -l`), with the system call rather than a child
  /// process, so a `defer` can call it without blocking on one.
  func unmount() {
    _ = umount2(path.path, Int32(MNT_DETACH))
  }
}
