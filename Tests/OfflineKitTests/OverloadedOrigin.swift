import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport

@testable import OfflineKit

/// A stream of plain segments on a ``FaultServer`` that answers at most `capacity` segment
/// requests at once, each taking 20 ms, and refuses the others with `status`.
struct OverloadedOrigin {
  let server: FaultServer
  let store: TemporaryDirectory
  let index: OfflineIndex
  let segments: [Data]

  init(segments count: Int, capacity: Int, status: Int) throws {
    server = try FaultServer()
    store = try TemporaryDirectory()
    index = try OfflineIndex(directory: store.url.appending(path: "store"))
    segments = (0..<count).map { TestData.bytes(count: 20_000 + $0, seed: UInt64(300 + $0)) }
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for (number, segment) in segments.enumerated() {
      text += "#EXTINF:1.0,\nseg\(number).ts\n"
      server.setRoute(
        "/v/seg\(number).ts",
        .overloaded(
          capacity: capacity, status: status,
          then: .delayed(seconds: 0.02, then: .resource(.init(body: segment)))))
    }
    text += "#EXT-X-ENDLIST\n"
    server.setRoute("/v/media.m3u8", .status(code: 200, body: Data(text.utf8)))
  }

  var folder: URL { store.url.appending(path: "content") }

  /// A download with the default piece retries (10), from 20 ms apart so the test stays
  /// short.
  func download() -> HLSDownload {
    HLSDownload(
      url: server.url("/v/media.m3u8"), folder: folder,
      configuration: StreamConfiguration(pieceRetryDelay: .milliseconds(20)),
      journal: index.transfers, transport: CurlTransport(),
      retry: RetryPolicy(
        maximumAttempts: 3, initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100)))
  }

  /// The bytes of every segment on disk, in playlist order, read through `index.m3u8`.
  func segmentsOnDisk() throws -> [Data] {
    try OfflineSegments.bytes(folder.appending(path: "index.m3u8"))
  }
}
