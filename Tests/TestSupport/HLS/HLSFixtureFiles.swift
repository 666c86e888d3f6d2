import Foundation

/// A fixture made by `HLSFixture.make(in:)`: a folder to serve and what a download must give.
///
/// Every playlist, key and segment URI inside the folder is relative, so the folder can be
/// served from any host and port:
///
/// ```swift
/// let files = try await HLSFixture.fmp4.make(in: root.url)
/// let nginx = try NginxServer(root: files.folder)
/// try nginx.start()
/// let playlist = files.url(on: nginx)
/// ```
public struct HLSFixtureFiles: Sendable {
  /// The folder holding everything to serve; pass it to `NginxServer(root:)`.
  public let folder: URL
  /// The URL path of the playlist to download, such as `"/master.m3u8"` or `"/index.m3u8"`.
  public let entryPath: String
  /// The duration of the source in seconds: what a full decode of the entry playlist gives.
  public let duration: Double
  /// The AES-128 key files inside `folder`, in playlist order; empty for unencrypted fixtures.
  public let keys: [URL]

  /// The local file URL of the entry playlist.
  public var entryFile: URL {
    folder.appendingPathComponent(String(entryPath.dropFirst()), isDirectory: false)
  }

  /// The URL of the entry playlist on `server`, which must serve `folder` as its root.
  public func url(on server: NginxServer) -> URL {
    server.url(entryPath)
  }
}
