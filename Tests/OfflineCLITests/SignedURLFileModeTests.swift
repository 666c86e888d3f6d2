import Foundation
import TestSupport
import TestTiming
import Testing

/// No file of a content that others may read holds a URL's query (issue 36, item 6): a
/// stream's playlist token and its key URIs' signatures were written to `offline.json`
/// with mode 0644, and `index-remote.m3u8` kept the other variants' signed URLs with mode
/// 0644 too.
@Suite(.ownThreads, .timed) struct SignedURLFileModeTests {
  static let secret = "S1GNED-S3CRET"

  /// nginx serving `fixture`, its playlists' URIs given `?sig=…` queries (nginx ignores
  /// them), and a folder for the store and the output.
  struct Setup {
    let root: TemporaryDirectory
    let server: NginxServer
    let files: HLSFixtureFiles
    let folder: TemporaryDirectory

    init(_ fixture: HLSFixture) async throws {
      root = try TemporaryDirectory()
      files = try await fixture.make(in: root.url)
      try Self.signURIs(in: files.folder)
      server = try NginxServer(root: files.folder)
      try server.start()
      folder = try TemporaryDirectory()
    }

    /// Appends a signature to every variant and key URI of the playlists in `folder`.
    static func signURIs(in folder: URL) throws {
      let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
      for name in names where name.hasSuffix(".m3u8") {
        let file = folder.appending(path: name)
        let text = try String(contentsOf: file, encoding: .utf8)
        let signed = text.split(separator: "\n", omittingEmptySubsequences: false).map {
          line -> String in
          if line.hasSuffix(".m3u8") { return line + "?sig=\(SignedURLFileModeTests.secret)" }
          return line.replacingOccurrences(
            of: ".key\"", with: ".key?sig=\(SignedURLFileModeTests.secret)\"")
        }
        try signed.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
      }
    }

    /// `get` of the entry playlist with a token in its query, into `out`, checked.
    func get(_ arguments: [String] = []) async throws -> URL {
      let out = folder.url.appending(path: "out")
      let url = files.url(on: server).absoluteString + "?token=\(SignedURLFileModeTests.secret)"
      let result = try await InProcessOffline.run(
        [
          "--store", folder.url.appending(path: "store").path, "get", url, "-o", out.path,
          "--quiet",
        ]
          + arguments, timeout: 90)
      #expect(result.status == 0, "\(result.stderrText)")
      return out
    }
  }

  /// Every regular file under `folder` with its permission bits.
  static func modes(under folder: URL) async throws -> [(path: String, mode: mode_t)] {
    try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted().compactMap {
      name in
      var info = stat()
      guard lstat(folder.appending(path: name).path, &info) == 0,
        (info.st_mode & S_IFMT) == S_IFREG
      else { return nil }
      return (name, info.st_mode & 0o777)
    }
  }

  /// The files under `folder` that others may read and that hold the secret.
  static func readableFilesWithTheSecret(under folder: URL) async throws -> [String] {
    try await modes(under: folder).filter { file in
      guard file.mode & 0o044 != 0 else { return false }
      let data = FileManager.default.contents(atPath: folder.appending(path: file.path).path)
      return data.map { String(decoding: $0, as: UTF8.self).contains(secret) } ?? false
    }.map { "\($0.path) (\(String($0.mode, radix: 8)))" }
  }

  /// Pins: `offline.json` (the playlist's token, the keys' signatures) was 0644.
  @Test func offlineJSONOfAnEncryptedStreamIsTheUsersAlone() async throws {
    let setup = try await Setup(.aes128Rotating)
    let out = try await setup.get()
    let manifest = try await Self.modes(under: out).first { $0.path == "offline.json" }
    #expect(manifest?.mode == 0o600, "\(String(describing: manifest))")
    #expect(try await Self.readableFilesWithTheSecret(under: out) == [])
  }

  /// Pins: `index-remote.m3u8` (the variants not downloaded, at their signed URLs) and
  /// `offline.json` were 0644. The playlists that hold no query stay readable by others.
  @Test func playlistsThatKeepSignedURLsAreTheUsersAlone() async throws {
    let setup = try await Setup(.tsVariants)
    let out = try await setup.get(["--variant", "lowest"])
    #expect(try await Self.readableFilesWithTheSecret(under: out) == [])
    let modes = try await Self.modes(under: out)
    #expect(modes.first { $0.path == "index-remote.m3u8" }?.mode == 0o600, "\(modes)")
    #expect(modes.first { $0.path == "index.m3u8" }?.mode == 0o644, "\(modes)")
  }
}
