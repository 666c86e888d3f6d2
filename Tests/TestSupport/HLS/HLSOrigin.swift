import Foundation

/// An HLS fixture made into a folder of its own and served by nginx from there; the folder
/// lives as long as the origin, and nginx stops when the origin goes.
///
/// ```swift
/// let origin = try HLSOrigin(.aes128Rotating, segmentCount: 6)
/// let playlist = origin.url  // http://127.0.0.1:PORT/index.m3u8
/// ```
public struct HLSOrigin: Sendable {
  /// The temporary folder the fixture was made in.
  public let root: TemporaryDirectory
  /// What `HLSFixture.make(in:duration:segmentDuration:segmentCount:)` made.
  public let files: HLSFixtureFiles
  /// The running nginx, serving `files.folder` as its root.
  public let nginx: NginxServer

  /// Makes `fixture` (see `HLSFixture.make(in:duration:segmentDuration:segmentCount:)`) and
  /// starts nginx on it with `options`.
  ///
  /// - Throws: `TestSupportError` when ffmpeg or nginx fail, or the file manager's error.
  public init(
    _ fixture: HLSFixture, segmentDuration: Double = 1, segmentCount: Int? = nil,
    options: NginxServer.Options = .init()
  ) async throws {
    root = try TemporaryDirectory(prefix: "offlinekit-hls")
    files = try await fixture.make(
      in: root.url, segmentDuration: segmentDuration, segmentCount: segmentCount)
    nginx = try NginxServer(root: files.folder, options: options)
    try nginx.start()
  }

  /// The URL of the entry playlist on `nginx`.
  public var url: URL { files.url(on: nginx) }
}
