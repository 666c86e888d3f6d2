import Foundation
import TestSupport
import Testing

extension GetMetalinkTests {
  /// `get --json` of a Metalink naming `urls` (the fixture's `disk.img` with its piece
  /// hashes), run in a fresh folder; expects it to succeed with the file the Metalink's
  /// SHA-256 names.
  static func getExpectingTheFile(
    _ urls: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> OfflineRun {
    let folder = try TemporaryDirectory()
    let metalink = folder.file("disk.meta4")
    try Data(try await meta4(urls: urls).utf8).write(to: metalink)
    let result = try await InProcessOffline.run(
      ["get", metalink.path, "--json"], store: folder.url.appending(path: "store"), in: folder.url,
      timeout: 120)
    #expect(result.status == 0, "\(result.stderrText)", sourceLocation: sourceLocation)
    let file = try #require(
      FileManager.default.contents(atPath: folder.file("disk.img").path),
      sourceLocation: sourceLocation)
    #expect(
      try await TestData.sha256Hex(of: file) == sha256(body), sourceLocation: sourceLocation)
    return result
  }
}
