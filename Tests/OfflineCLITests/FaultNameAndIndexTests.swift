import Foundation
import TestSupport
import TestTiming
import Testing

/// Rows of the fault matrix (docs/Reliability.md) driven through `offline`: a hostile
/// `Content-Disposition` name. (An index whose write-ahead log went missing after a kill is
/// in `KilledRunTests`.)
@Suite(.ownThreads, .timed) struct FaultNameAndIndexTests {
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

}
