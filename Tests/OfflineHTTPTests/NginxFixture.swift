import Foundation
import TestSupport

/// Test files in a temporary directory, served by a fresh nginx on 127.0.0.1.
struct NginxFixture {
  /// The document root; it goes away with the fixture.
  let root: TemporaryDirectory
  /// The running server; it stops with the fixture.
  let server: NginxServer

  /// Writes `TestData.bytes(count:seed:)` for each file name and starts nginx.
  init(files: [String: (count: Int, seed: UInt64)], options: NginxServer.Options = .init())
    throws
  {
    root = try TemporaryDirectory(prefix: "offlinekit-http")
    for (name, file) in files {
      try TestData.writeFile(at: root.file(name), count: file.count, seed: file.seed)
    }
    server = try NginxServer(root: root.url, options: options)
    try server.start()
  }

  /// The URL of `path` on the server.
  func url(_ path: String) -> URL { server.url(path) }
}
