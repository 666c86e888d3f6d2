import Foundation
import TestSupport
import TestTiming
import Testing

/// A symbolic link planted at a folder inside a stream's folder (`keys/`, a variant's
/// `video/`, DASH's `p0/`), through `get -o`, the queue, `verify` and `repair` (issue 36,
/// item 7). The part file and the destination refused links, but such a folder was
/// followed: pieces, keys and playlists were written into the folder it names, outside the
/// output folder (outside the store for `repair`), replacing files of the same names there.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LinkedSubfolderTests {
  /// A stream served by nginx, and the folder inside its copy that a link replaces.
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    /// The folder inside the content's folder where the link is planted.
    let folder: String
    let make: @Sendable () async throws -> (url: String, keep: Any)

    var testDescription: String { name }

    static let hlsKeys = Case(name: "HLS keys/", folder: "keys") {
      let origin = try await HLSOrigin(.aes128Rotating)
      return (origin.url.absoluteString, origin)
    }
    static let hlsVariant = Case(name: "HLS video/", folder: "video") {
      let origin = try await HLSOrigin(.tsVariants)
      return (origin.url.absoluteString, origin)
    }
    static let dash = Case(name: "DASH p0/", folder: "p0") {
      let origin = try await DASHCommandTests.Origin(.timeline)
      return (origin.url, origin)
    }
  }

  /// A folder outside the store with one file in it, which nothing may touch.
  struct Victim {
    let folder: URL
    let decoy = Data("not yours".utf8)

    init(in work: TemporaryDirectory) throws {
      folder = work.url.appending(path: "victim")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try decoy.write(to: folder.appending(path: "decoy"))
    }

    /// Expects the folder to hold only its decoy, unchanged.
    func expectUntouched(sourceLocation: SourceLocation = #_sourceLocation) {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      #expect(
        names == ["decoy"], "written through the link: \(names)", sourceLocation: sourceLocation)
      #expect(
        FileManager.default.contents(atPath: folder.appending(path: "decoy").path) == decoy,
        sourceLocation: sourceLocation)
    }
  }

  /// Pins issue 36, item 7 for `get -o`: the pieces went through the link into the folder it
  /// names.
  @Test(arguments: [Case.hlsKeys, .hlsVariant, .dash])
  func getRefusesALinkedSubfolderAndWritesNothingThroughIt(_ stream: Case) async throws {
    let (url, origin) = try await stream.make()
    defer { withExtendedLifetime(origin) {} }
    let work = try TemporaryDirectory()
    let victim = try Victim(in: work)
    let out = work.url.appending(path: "movie")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let link = out.appending(path: stream.folder)
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim.folder)

    let result = try await InProcessOffline.run(
      ["--store", work.url.appending(path: "store").path, "get", url, "-o", out.path])

    #expect(result.status == 1, "\(result.stderrText)")
    #expect(
      result.stderrText.contains("\(link.path) is a symbolic link where a folder of the content"),
      "\(result.stderrText)")
    victim.expectUntouched()
  }

  /// Pins issue 36, item 7 for the queue: a link planted in the content's folder before the
  /// run was written through; `rm` and `cancel` never delete through it either.
  @Test(arguments: [Case.hlsKeys, .hlsVariant, .dash])
  func theQueueRefusesALinkedSubfolderAndDeletesNothingThroughIt(_ stream: Case) async throws {
    let (url, origin) = try await stream.make()
    defer { withExtendedLifetime(origin) {} }
    let work = try TemporaryDirectory()
    let victim = try Victim(in: work)
    let store = work.url.appending(path: "store")
    let offline = { (arguments: [String]) async throws in
      try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 60)
    }
    #expect(try await offline(["add", url, "--id", "s"]).status == 0)
    let folder = store.appending(path: "content/s")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let link = folder.appending(path: stream.folder)
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim.folder)

    let run = try await offline(["run", "--quiet"])
    #expect(run.status == 1, "\(run.stderrText)")
    let listed = try await offline(["ls", "--json"])
    #expect(
      listed.stdoutText.contains("\(link.path) is a symbolic link where a folder"),
      "\(listed.stdoutText)")
    victim.expectUntouched()

    #expect(try await offline(["cancel", "s"]).status == 0)
    victim.expectUntouched()
    #expect(!FileManager.default.fileExists(atPath: folder.path))
  }

  /// Pins issue 36, item 7 for `verify` and `repair`: a downloaded stream whose folder was
  /// moved out of the store and linked back was whole to `verify`, and `repair` wrote into
  /// the folder outside the store. Now the files behind the link are missing to `verify`
  /// and `ls`, `repair` refuses the link, and `rm` deletes nothing through it.
  @Test(arguments: [Case.hlsKeys, .hlsVariant, .dash])
  func verifyCallsALinkedSubfolderDamageAndRepairNeverWritesThroughIt(_ stream: Case) async throws {
    let (url, origin) = try await stream.make()
    defer { withExtendedLifetime(origin) {} }
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "store")
    let offline = { (arguments: [String]) async throws in
      try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 60)
    }
    #expect(try await offline(["add", url, "--id", "s"]).status == 0)
    let run = try await offline(["run", "--quiet"])
    try #require(run.status == 0, "\(run.stderrText)")
    let inside = store.appending(path: "content/s").appending(path: stream.folder)
    let moved = work.url.appending(path: "moved")
    try FileManager.default.moveItem(at: inside, to: moved)
    try FileManager.default.createSymbolicLink(at: inside, withDestinationURL: moved)
    let before = try await Self.snapshot(of: moved)
    // One file damaged behind the link: a repair through the link would mend it.
    let first = try #require(before.keys.sorted().last)
    try FileDamage.flipByte(at: 0, of: moved.appending(path: first).path)
    let damaged = try await Self.snapshot(of: moved)

    let verify = try await offline(["verify", "s"])
    #expect(verify.status == 1, "\(verify.stdoutText)")
    #expect(verify.stdoutText.contains("is missing"), "\(verify.stdoutText)")
    let listed = try await offline(["ls"])
    #expect(listed.stdoutText.contains("damaged:"), "\(listed.stdoutText)")

    let repair = try await offline(["repair", "s"])
    #expect(repair.status == 1, "\(repair.stdoutText)")
    #expect(
      repair.stderrText.contains("\(inside.path) is a symbolic link where a folder"),
      "\(repair.stderrText)")
    #expect(try await Self.snapshot(of: moved) == damaged, "written through the link")

    #expect(try await offline(["rm", "s"]).status == 0)
    #expect(try await Self.snapshot(of: moved) == damaged, "deleted through the link")
  }

  /// Pins issue 36, item 7 between runs: a variant's folder moved out of the store and
  /// linked back while the stream was paused got the rest of its pieces through the link
  /// when it resumed.
  @Test func aLinkPlantedWhileAStreamIsPausedIsRefusedWhenItResumes() async throws {
    let origin = try await HLSOrigin(.tsVariants, options: .init(limitRate: "20k"))
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "store")
    let offline = { (arguments: [String]) async throws in
      try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 60)
    }
    #expect(try await offline(["add", origin.url.absoluteString, "--id", "s"]).status == 0)
    let inside = store.appending(path: "content/s/video")
    // The run is paused from another command, not stopped: inside this process either way.
    let run = InProcessRun(["run"], store: store)
    defer { run.stopIfRunning() }
    _ = await QueueFixture.poll(seconds: 30) {
      ((try? FileManager.default.contentsOfDirectory(atPath: inside.path)) ?? [])
        .contains { $0.hasSuffix(".ts") }
    }
    #expect(try await offline(["pause", "s"]).status == 0)
    _ = await run.finish(seconds: 30)
    let moved = work.url.appending(path: "moved")
    try FileManager.default.moveItem(at: inside, to: moved)
    try FileManager.default.createSymbolicLink(at: inside, withDestinationURL: moved)
    let before = try await Self.snapshot(of: moved)

    #expect(try await offline(["resume", "s"]).status == 0)
    let resumed = try await offline(["run", "--quiet"])
    #expect(resumed.status == 1, "\(resumed.stderrText)")
    let listed = try await offline(["ls", "--json"])
    #expect(
      listed.stdoutText.contains("\(inside.path) is a symbolic link where a folder"),
      "\(listed.stdoutText)")
    #expect(try await Self.snapshot(of: moved) == before, "written through the link")
  }

  /// Pins issue 36, item 7 for the content's own folder in the store (`content/<id>`), which
  /// a rebuild never adopts when it is a link: the queue wrote the stream through it, and
  /// `verify` found a downloaded stream moved out of the store and linked back whole.
  @Test func aLinkedContentFolderIsRefusedByTheQueueAndMissingToVerify() async throws {
    let origin = try await HLSOrigin(.tsVariants)
    let work = try TemporaryDirectory()
    let victim = try Victim(in: work)
    let offline = { (store: String, arguments: [String]) async throws in
      try await InProcessOffline.run(["--store", work.url.appending(path: store).path] + arguments)
    }
    #expect(try await offline("one", ["add", origin.url.absoluteString, "--id", "s"]).status == 0)
    let content = work.url.appending(path: "one/content")
    try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
    let link = content.appending(path: "s")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim.folder)
    #expect(try await offline("one", ["run", "--quiet"]).status == 1)
    let listed = try await offline("one", ["ls", "--json"])
    #expect(
      listed.stdoutText.contains("\(link.path) is a symbolic link where a folder"),
      "\(listed.stdoutText)")
    victim.expectUntouched()

    #expect(try await offline("two", ["add", origin.url.absoluteString, "--id", "t"]).status == 0)
    try #require(try await offline("two", ["run", "--quiet"]).status == 0)
    let folder = work.url.appending(path: "two/content/t")
    let moved = work.url.appending(path: "moved")
    try FileManager.default.moveItem(at: folder, to: moved)
    try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: moved)
    let verify = try await offline("two", ["verify", "t"])
    #expect(verify.status == 1, "\(verify.stdoutText)")
    #expect(
      verify.stdoutText.contains("index.m3u8 (offline playlist) is missing"), "\(verify.stdoutText)"
    )
  }

  /// The files under `folder` (relative paths) and their bytes.
  static func snapshot(of folder: URL) async throws -> [String: Data] {
    var files: [String: Data] = [:]
    let walker = FileManager.default.enumerator(atPath: folder.path)
    while let relative = walker?.nextObject() as? String {
      var isFolder: ObjCBool = false
      let path = folder.appending(path: relative).path
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
        files[relative] = FileManager.default.contents(atPath: path)
      }
    }
    return files
  }
}
