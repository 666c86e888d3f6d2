import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Rows of the fault matrix (docs/Reliability.md) about the disk: a file system that fills
/// up or turns read-only under a download, a part file deleted behind our back, a symlink
/// planted where we are about to write. The faulty run fails with a file error and leaves
/// nothing at the destination; once the fault is gone, the next run finishes byte-exact.
@Suite(.serialized, .enabled(if: getuid() == 0), .timed)
struct FaultDiskTests {
  let body = TestData.bytes(count: 3 << 20, seed: 31)

  /// Remounts the tmpfs at `mount` with `options` (for example `size=8m` or `ro`).
  func remount(_ mount: TmpfsMount, _ options: String) async throws {
    let result = try await ProcessRunner.run(
      "/bin/mount", ["-o", "remount,\(options)", mount.path.path], timeout: 10)
    try #require(result.status == 0, "remount failed: \(result.stderrText)")
  }

  /// Matrix row "ENOSPC mid-file": a 1 MiB tmpfs and a 3 MiB file.
  @Test func aDiskFullMidFileFailsAsOutOfSpaceAndFinishesOnceThereIsRoom() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body)))
    let fixture = try TransferFixture()
    let mount = try await TmpfsMount(at: fixture.folder.url.appending(path: "out"), megabytes: 1)
    defer { mount.unmount() }
    do {
      _ = try await fixture.transfer(server.url("/f")).run()
      Issue.record("a download larger than the disk succeeded")
    } catch {
      #expect(error.isOutOfSpace, "\(error)")
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))

    try await remount(mount, "size=8m")
    let outcome = try await fixture.transfer(server.url("/f")).run()
    #expect(fileData(outcome.destination) == body)
  }

  /// Matrix row "ENOSPC mid-HLS": segments fill a 128 KiB tmpfs; no offline playlist, and
  /// the stream completes on the next run once there is room.
  @Test func aDiskFullMidStreamWritesNoPlaylistAndFinishesOnceThereIsRoom() async throws {
    let stream = try FaultHLSTests.Stream()
    let mount = try await TmpfsMount(at: stream.folder, megabytes: 1)
    defer { mount.unmount() }
    try await remount(mount, "size=128k")
    do {
      _ = try await stream.download().run()
      Issue.record("a stream larger than the disk completed")
    } catch {
      #expect(error.isOutOfSpace, "\(error)")
    }
    #expect(!stream.download().isComplete)

    try await remount(mount, "size=4m")
    _ = try await stream.download().run()
    #expect(try stream.segmentsOnDisk() == stream.segments)
  }

  /// Matrix row "the content directory made read-only": a file error, nothing written;
  /// writable again, the next run finishes.
  @Test func aReadOnlyFolderFailsWithAFileErrorAndFinishesOnceWritable() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body)))
    let fixture = try TransferFixture()
    let mount = try await TmpfsMount(at: fixture.folder.url.appending(path: "out"), megabytes: 8)
    defer { mount.unmount() }
    try await remount(mount, "ro")
    do {
      _ = try await fixture.transfer(server.url("/f")).run()
      Issue.record("a download into a read-only folder succeeded")
    } catch {
      guard case .file = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(!error.isTransient)
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))

    try await remount(mount, "rw")
    let outcome = try await fixture.transfer(server.url("/f")).run()
    #expect(fileData(outcome.destination) == body)
  }

  /// Matrix row "the .part deleted behind our back": the run never reports complete a file
  /// that is not the server's bytes, and the next run (or this one) ends byte-exact.
  @Test func aPartDeletedMidDownloadIsNeverPassedOffAsComplete() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/f", .resource(.init(body: body, faults: .init(bytesPerSecond: 2 << 20))))
    let fixture = try TransferFixture()
    let part = fixture.destination() + ".part"
    let running = Task { try await fixture.transfer(server.url("/f")).run() }
    for _ in 0..<400 where (FileSteps.regularFileSize(part) ?? 0) < 256 << 10 {
      try await Task.sleep(for: .milliseconds(25))
    }
    try FileManager.default.removeItem(atPath: part)
    do {
      let outcome = try await running.value
      #expect(fileData(outcome.destination) == body, "reported complete")
    } catch {
      #expect(fileData(fixture.destination()) == nil, "\(error)")
    }
    server.setRoute("/f", .resource(.init(body: body)))
    let outcome = try await fixture.transfer(server.url("/f")).run()
    #expect(fileData(outcome.destination) == body)
  }

  /// Matrix row "a symlink planted where we write": at the destination itself (the part is
  /// covered by `aSymlinkPlantedAtThePartIsNeverFollowed`), the link's target is never
  /// written through.
  @Test func aSymlinkPlantedAtTheDestinationIsNeverWrittenThrough() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body)))
    let fixture = try TransferFixture()
    let victim = fixture.folder.url.appending(path: "victim.txt")
    try Data("keep me\n".utf8).write(to: victim)
    try FileManager.default.createDirectory(
      atPath: (fixture.destination() as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.destination(), withDestinationPath: victim.path)
    let options = Options.quick { $0.replacesExistingFile = true }
    _ = try? await fixture.transfer(server.url("/f"), configuration: options).run()

    #expect(fileData(victim.path) == Data("keep me\n".utf8))
    let attributes = try FileManager.default.attributesOfItem(atPath: fixture.destination())
    if attributes[.type] as? FileAttributeType == .typeRegular {
      #expect(fileData(fixture.destination()) == body)
    }
  }
}
