import DASHManifest
import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import Testing

@testable import OfflineKit

/// A DASH fixture (or a hand-written manifest) served by nginx at `/manifest.mpd`, and how
/// ffmpeg decodes it there.
struct DASHOrigin {
  /// The folder nginx serves.
  let www: TemporaryDirectory
  let nginx: NginxServer
  /// The manifest's URL on nginx.
  var url: URL { nginx.url("/manifest.mpd") }
  /// The manifest's file.
  var entryFile: URL { www.file("manifest.mpd") }

  init(_ kind: DASHStreamFixture, options: NginxServer.Options = .init()) async throws {
    www = try TemporaryDirectory(prefix: "offlinekit-dash")
    _ = try await kind.make(in: www.url)
    nginx = try NginxServer(root: www.url, options: options)
    try nginx.start()
  }

  /// Serves a ``DASHPlaybackFixture`` (ten segments or more per stream).
  init(playback kind: DASHPlaybackFixture) async throws {
    www = try TemporaryDirectory(prefix: "offlinekit-dash")
    _ = try await kind.make(in: www.url)
    nginx = try NginxServer(root: www.url)
    try nginx.start()
  }

  /// Serves hand-written `manifest` as `/manifest.mpd` (with no media).
  init(manifest: String) throws {
    www = try TemporaryDirectory(prefix: "offlinekit-dash")
    try manifest.write(to: www.file("manifest.mpd"), atomically: true, encoding: .utf8)
    nginx = try NginxServer(root: www.url)
    try nginx.start()
  }

  /// The MD5 of each decoded stream of the origin, over http, by ffmpeg's stream specifier.
  func decodedMD5s(_ streams: [String]) async throws -> [String: String] {
    var result: [String: String] = [:]
    for stream in streams {
      let decoded = try await FFmpeg.decodedMD5(url.absoluteString, stream: stream)
      #expect(decoded.md5.hasPrefix("MD5="), "origin \(stream): \(decoded.errors)")
      result[stream] = decoded.md5
    }
    return result
  }
}
