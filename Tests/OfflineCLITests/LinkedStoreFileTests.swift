import Foundation
import TestSupport
import TestTiming
import Testing

/// A symbolic link planted where the store keeps a single file (the shared `files/`, a
/// content's own `content/<id>`) or where a repair stages a chunk (`<file>.chunk<N>.part`)
/// is refused or replaced, never written through (issue 36, item 7).
@Suite(.serialized, .ownThreads, .timed)
struct LinkedStoreFileTests {
  /// Pins issue 36, item 7 for single files: a link at the shared `files/` folder or at a
  /// content's own folder was followed by the download, which wrote the file (and its part)
  /// into the folder the link names, outside the store. Now the run fails naming the link.
  @Test func aSingleFileRefusesALinkedFilesFolderOrContentFolder() async throws {
    let fixture = try QueueFixture()
    let victim = try LinkedSubfolderTests.Victim(in: fixture.folder)
    // `a` takes the shared folder's name; `b`, of the same name, gets a folder of its own.
    _ = try await fixture.add([fixture.url("small.bin"), "--id", "a"])
    _ = try await fixture.add([fixture.url("small.bin"), "--id", "b"])
    let links = [
      fixture.store.appending(path: "files"), fixture.store.appending(path: "content/b"),
    ]
    for link in links {
      try? FileManager.default.removeItem(at: link)
      try FileManager.default.createDirectory(
        at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim.folder)
    }

    let run = try await fixture.offline(["run", "--quiet"])
    #expect(run.status == 1, "\(run.stderrText)")
    let listed = try await fixture.offline(["ls", "--json"])
    for link in links {
      #expect(
        listed.stdoutText.contains("\(link.path) is a symbolic link where a folder"),
        "\(listed.stdoutText)")
    }
    victim.expectUntouched()
  }

  /// Pins issue 36, item 7 for a repair's staged chunks: the part `<file>.chunk<N>.part` was
  /// opened with `O_CREAT | O_TRUNC` and no `O_NOFOLLOW`, so a link planted there had the
  /// chunk written into the file it names, outside the store. Now it is replaced by a part
  /// of the repair's own, and the repair mends the file.
  @Test func aRepairNeverWritesAStagedChunkThroughALinkPlantedAtItsPart() async throws {
    let (fixture, path) = try await VerifyCommandTests.downloaded()
    let victim = try LinkedSubfolderTests.Victim(in: fixture.folder)
    try FileDamage.flipByte(at: 5 << 20, of: path)  // chunk 1, at 4 MiB
    try FileManager.default.createSymbolicLink(
      atPath: path + ".chunk1.part",
      withDestinationPath: victim.folder.appending(path: "decoy").path)

    let repair = try await fixture.offline(["repair", "big"], timeout: 60)
    #expect(repair.status == 0, "\(repair.stderrText)")
    victim.expectUntouched()
    let verify = try await fixture.offline(["verify", "big"])
    #expect(verify.status == 0, "\(verify.stdoutText)")
  }
}
