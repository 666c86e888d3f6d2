import Foundation

/// nginx with the folders of ``NginxGates`` (token, Basic, cookie, Referer, header) and an
/// open one, `/open/`, each holding the same files and streams, and a header log of the
/// fields that carry secrets (see ``loggedHeaders``).
///
/// ```swift
/// let origin = try GatedOrigin(files: ["a.bin": body], streams: ["hls": .aes128Rotating])
/// let url = origin.streamURL("hls", in: "bearer")  // needs Authorization: Bearer …
/// ```
public final class GatedOrigin: Sendable {
  /// The gated folders and the open one.
  public static let folders = ["bearer", "basic", "cookie", "referer", "header", "open"]
  /// The request fields the header log keeps.
  public static let loggedHeaders = ["Authorization", "Cookie", "Referer", "X-Api-Key", "X-Plain"]

  /// The document root.
  public let root: TemporaryDirectory
  /// A folder outside the root for the htpasswd and for a test's cookies and netrc files.
  public let secrets: TemporaryDirectory
  /// The server.
  public let server: NginxServer
  /// The streams made in each folder, by the name given.
  public let streams: [String: HLSFixtureFiles]

  /// Writes `files` (path → bytes) and makes `streams` (a subfolder name → kind) in every
  /// folder, and starts nginx; `extraLocations` go into its `server` block.
  public init(
    files: [String: Data] = [:], streams: [String: HLSFixture] = [:], extraLocations: String = ""
  ) async throws {
    root = try TemporaryDirectory(prefix: "offlinekit-gated")
    secrets = try TemporaryDirectory(prefix: "offlinekit-gated-secrets")
    var made: [String: HLSFixtureFiles] = [:]
    for folder in Self.folders {
      let base = root.url.appendingPathComponent(folder, isDirectory: true)
      try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
      for (path, bytes) in files { try bytes.write(to: base.appendingPathComponent(path)) }
      for (name, kind) in streams {
        made[name] = try await kind.make(in: base.appendingPathComponent(name, isDirectory: true))
      }
    }
    self.streams = made
    let options = try NginxGates.options(
      htpasswdIn: secrets.url,
      adding: .init(extraLocations: extraLocations, loggedHeaders: Self.loggedHeaders))
    server = try NginxServer(root: root.url, options: options)
    try server.start()
  }

  /// The URL of `path` on the server.
  public func url(_ path: String) -> URL { server.url(path) }

  /// The URL of file `name` in `folder`.
  public func fileURL(_ name: String, in folder: String) -> URL { url("/\(folder)/\(name)") }

  /// The entry playlist of stream `name` in `folder`.
  public func streamURL(_ name: String, in folder: String) -> URL {
    url("/\(folder)/\(name)\(streams[name]?.entryPath ?? "/index.m3u8")")
  }

  /// Writes a cookies.txt holding the cookie `/cookie/` wants into ``secrets``.
  public func cookiesFile() throws -> URL {
    let file = secrets.file("cookies.txt")
    let line = [
      "127.0.0.1", "FALSE", "/cookie/", "FALSE", "0", NginxGates.cookieName,
      NginxGates.cookieValue,
    ].joined(separator: "\t")
    try Data("# Netscape HTTP Cookie File\n\(line)\n".utf8).write(to: file)
    return file
  }

  /// Writes a netrc with the credentials `/basic/` wants into ``secrets``.
  public func netrcFile() throws -> URL {
    let file = secrets.file("netrc")
    try Data(
      "machine 127.0.0.1 login \(NginxGates.user) password \(NginxGates.password)\n".utf8
    ).write(to: file)
    return file
  }
}
