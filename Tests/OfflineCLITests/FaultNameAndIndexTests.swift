import Foundation
import TestSupport
import Testing

/// Rows of the fault matrix (docs/Reliability.md) driven through `offline`: a hostile
/// `Content-Disposition` name, and an index whose write-ahead log went missing.
@Suite(.ownThreads) struct FaultNameAndIndexTests {
  /// Matrix row "Content-Disposition filename with ../": `get` and the queue name the file
  /// after the URL, inside the output or content folder; the server's name is never used.
  @Test func aHostileContentDispositionNameIsNeverUsed() async throws {
    let server = try FaultServer()
    let body = Data("payload\n".utf8)
    let hostile = [
      ("Content-Disposition", "attachment; filename=\"../../escaped.txt\""),
      ("Content-Type", "application/octet-stream"),
    ]
    server.setRoute("/file.bin", .status(code: 200, headers: hostile, body: body))
    server.setRoute(
      "/other.bin",
      .status(
        code: 200,
        headers: [("Content-Disposition", "attachment; filename*=UTF-8''%2E%2E%2Fqueued.txt")],
        body: body))
    let folder = try TemporaryDirectory()
    let out = folder.url.appending(path: "a/b/out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let store = folder.url.appending(path: "a/b/store")

    let get = try await InProcessOffline.run(
      ["get", server.url("/file.bin").absoluteString], store: store, in: out)
    #expect(get.status == 0, "\(get.stderrText)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["file.bin"])

    let added = try await InProcessOffline.run(
      ["--store", store.path, "add", server.url("/other.bin").absoluteString, "--id", "q"])
    #expect(added.status == 0, "\(added.stderrText)")
    let run = try await InProcessOffline.run(["--store", store.path, "run", "--quiet"])
    #expect(run.status == 0, "\(run.stderrText)")
    let content = store.appending(path: "files")
    // The file in the store's shared folder (docs/Manifest.md), named by us.
    #expect(try FileManager.default.contentsOfDirectory(atPath: content.path) == ["other.bin"])

    let everything = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path)
    #expect(
      !everything.contains { $0.contains("escaped") || $0.contains("queued") }, "\(everything)")
  }

  /// The same promise read from the code: nothing in OfflineKit or the CLI refers to the
  /// `ContentDisposition` parser, so no local name can come from it. A new use must come
  /// with its own sanitising and a change to this test.
  @Test func noLocalNameCodePathUsesContentDisposition() async throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appending(path: "Sources")
    var checked = 0
    for module in ["OfflineKit", "OfflineCLI"] {
      let root = sources.appending(path: module)
      let files = try FileManager.default.subpathsOfDirectory(atPath: root.path)
      for file in files where file.hasSuffix(".swift") {
        let text = try String(contentsOf: root.appending(path: file), encoding: .utf8)
        #expect(!text.contains("ContentDisposition"), "\(module)/\(file)")
        #expect(!text.lowercased().contains("content-disposition"), "\(module)/\(file)")
        checked += 1
      }
    }
    #expect(checked > 20)
  }

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
