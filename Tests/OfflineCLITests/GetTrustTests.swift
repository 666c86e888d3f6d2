import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get` never reports a file complete or verified unless its bytes are the origin's:
/// not with a second writer on the same destination, not after the file was changed on disk,
/// not through a link or onto something that is not a regular file.
@Suite(.ownThreads, .timed) struct GetTrustTests {
  /// nginx serving `file.bin` (16 MiB) at full speed and under `/slow/` at 4 MiB/s.
  struct Setup {
    let folder: TemporaryDirectory
    let nginx: NginxServer
    let body: Data
    var out: URL { folder.url.appending(path: "out") }

    init() throws {
      folder = try TemporaryDirectory()
      let www = folder.url.appending(path: "www")
      try FileManager.default.createDirectory(
        at: www.appending(path: "slow"), withIntermediateDirectories: true)
      body = TestData.bytes(count: 16 << 20, seed: 41)
      try body.write(to: www.appending(path: "file.bin"))
      try body.write(to: www.appending(path: "slow/file.bin"))
      try FileManager.default.createDirectory(
        at: folder.url.appending(path: "out"), withIntermediateDirectories: true)
      nginx = try NginxServer(
        root: www, options: .init(extraLocations: "location /slow/ { limit_rate 4m; }"))
      try nginx.start()
    }

    func store(_ name: String = "store") -> URL { folder.url.appending(path: name) }
    func url(_ path: String = "/file.bin") -> String { nginx.url(path).absoluteString }
    var sha: String { get async { (try? await TestData.sha256Hex(of: body)) ?? "" } }
  }

  // Pins: after 4 bytes of the file were overwritten, a rerun with --sha256 said "Already
  // complete and verified (SHA-256 <expected>)", exit 0.
  @Test func aFileChangedOnDiskIsHashedAgainAndDownloadedAgain() async throws {
    let setup = try Setup()
    let arguments = await ["get", setup.url(), "--sha256", setup.sha]
    await #expect(
      try InProcessOffline.run(arguments, store: setup.store(), in: setup.out).status == 0)
    let file = setup.out.appending(path: "file.bin")
    let handle = try FileHandle(forWritingTo: file)
    try handle.seek(toOffset: 5_000_000)
    handle.write(Data("evil".utf8))
    try handle.close()

    let rerun = try await InProcessOffline.run(arguments, store: setup.store(), in: setup.out)
    #expect(rerun.status == 0, "\(rerun.stderrText)")
    #expect(!rerun.stderrText.contains("Already complete"), "\(rerun.stderrText)")
    #expect(rerun.stderrText.contains("changed on disk"), "\(rerun.stderrText)")
    #expect(FileManager.default.contents(atPath: file.path) == setup.body)
    #expect(try await setup.nginx.accessLog(minimumCount: 2).count == 2)
  }

  // Pins: without --sha256 a swapped file of the same length was "complete and verified".
  @Test func aSwappedFileWithoutAChecksumIsReportedChangedAndDownloadedAgain() async throws {
    let setup = try Setup()
    await #expect(
      try InProcessOffline.run(["get", setup.url()], store: setup.store(), in: setup.out).status
        == 0)
    let unchanged = try await InProcessOffline.run(
      ["get", setup.url()], store: setup.store(), in: setup.out)
    #expect(unchanged.stderrText.contains("Already complete"), "\(unchanged.stderrText)")
    #expect(!unchanged.stderrText.contains("verified"), "\(unchanged.stderrText)")

    let file = setup.out.appending(path: "file.bin")
    let swapped = setup.out.appending(path: "swapped.tmp")
    try TestData.bytes(count: setup.body.count, seed: 99).write(to: swapped)
    _ = rename(swapped.path, file.path)
    let rerun = try await InProcessOffline.run(
      ["get", setup.url()], store: setup.store(), in: setup.out)

    #expect(rerun.status == 0, "\(rerun.stderrText)")
    #expect(!rerun.stderrText.contains("verified"), "\(rerun.stderrText)")
    #expect(rerun.stderrText.contains("changed on disk"), "\(rerun.stderrText)")
    #expect(FileManager.default.contents(atPath: file.path) == setup.body)
  }

  @Test func aRerunThatHashesTheFileSaysVerifiedOnlyThen() async throws {
    let setup = try Setup()
    let arguments = await ["get", setup.url(), "--sha256", setup.sha]
    await #expect(
      try InProcessOffline.run(arguments, store: setup.store(), in: setup.out).status == 0)
    let unchanged = try await InProcessOffline.run(arguments, store: setup.store(), in: setup.out)
    #expect(unchanged.stderrText.contains("unchanged on disk"), "\(unchanged.stderrText)")
    #expect(!unchanged.stderrText.contains("verified"))

    // A new modification time with the same bytes: hashed, found whole, said so.
    let file = setup.out.appending(path: "file.bin").path
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1e9)], ofItemAtPath: file)
    let touched = try await InProcessOffline.run(arguments, store: setup.store(), in: setup.out)
    #expect(touched.stderrText.contains("Already complete and verified"), "\(touched.stderrText)")
    #expect(try await setup.nginx.accessLog(minimumCount: 1).count == 1)
  }

  // Pins: with -o naming a symbolic link, --force replaced the file the link points to.
  @Test func forceReplacesALinkItselfNeverItsTarget() async throws {
    let setup = try Setup()
    let target = setup.folder.url.appending(path: "elsewhere.txt")
    try Data("keep me".utf8).write(to: target)
    let link = setup.out.appending(path: "sl.bin")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

    let result = try await InProcessOffline.run(
      ["get", setup.url(), "-o", link.path, "--force"], store: setup.store(), in: setup.out)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(FileManager.default.contents(atPath: target.path) == Data("keep me".utf8))
    let attributes = try FileManager.default.attributesOfItem(atPath: link.path)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    #expect(FileManager.default.contents(atPath: link.path) == setup.body)
  }

  // Pins: `-o /dev/null --force` as root replaced /dev/null. A device node made here, and a
  // FIFO, stand in for it.
  @Test(arguments: ["device", "fifo", "folder"])
  func forceNeverReplacesSomethingThatIsNotARegularFile(kind: String) async throws {
    let setup = try Setup()
    // A folder at the output path: one named like the URL's file, inside the output folder.
    let path = setup.out.appending(path: kind == "folder" ? "file.bin" : "special").path
    switch kind {
    case "device":
      guard getuid() == 0 else { return }  // mknod needs root
      #expect(mknod(path, S_IFCHR | 0o666, makedev(1, 3)) == 0)
    case "fifo":
      #expect(mkfifo(path, 0o644) == 0)
    default:
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    let output = kind == "folder" ? setup.out.path + "/" : path
    let result = try await InProcessOffline.run(
      ["get", setup.url(), "-o", output, "--force"], store: setup.store(), in: setup.out,
      timeout: 30)

    #expect(result.status == 1, "\(result.stderrText)")
    #expect(result.stderrText.contains("never replaced"), "\(result.stderrText)")
    var info = stat()
    #expect(lstat(path, &info) == 0)
    let expected = kind == "device" ? S_IFCHR : kind == "fifo" ? S_IFIFO : S_IFDIR
    #expect(info.st_mode & S_IFMT == expected)
  }
}

extension GetTrustTests {
  // A stream's -o naming a link to a file: the folder is refused, the file behind the link
  // untouched; a link to a folder is a folder the user chose.
  @Test func aStreamFolderIsNeverMadeThroughALinkToAFile() async throws {
    let setup = try Setup()
    let victim = setup.folder.url.appending(path: "victim.txt")
    try Data("precious".utf8).write(to: victim)
    let link = setup.out.appending(path: "movie")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
    let result = try await InProcessOffline.run(
      ["get", setup.url("/stream.m3u8"), "-o", link.path, "--force"], store: setup.store(),
      in: setup.out)
    #expect(result.status == 1, "\(result.stderrText)")
    #expect(result.stderrText.contains("Not a directory"), "\(result.stderrText)")
    #expect(FileManager.default.contents(atPath: victim.path) == Data("precious".utf8))
  }
}

/// `makedev(3)`, which Glibc exposes only as a macro.
private func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
  dev_t((UInt64(major & 0xfff) << 8) | UInt64(minor & 0xff))
}
