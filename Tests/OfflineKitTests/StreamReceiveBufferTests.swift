import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineHTTP
@testable import OfflineKit

/// How much each stream piece's request reads at once (issue 14, HTTP/2 peak RSS).
@Suite(.timed) struct StreamReceiveBufferTests {
  /// Pins issue 14: with up to 64 pieces in flight over HTTP/2, each piece's request had
  /// the 512 KiB receive buffer meant for big files, and peak RSS rose from 52 to 69 MiB.
  /// Every segment's request now asks for at most 32 KiB, which is what curl is given.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func everyPieceOfAStreamAsksForASmallReceiveBuffer() async throws {
    let www = try TemporaryDirectory(prefix: "offlinekit-hls")
    let stream = try await HLSFixture.manySegments.make(in: www.url, segmentCount: 8)
    let nginx = try NginxServer(root: stream.folder)
    try nginx.start()
    defer { nginx.stop() }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let transport = RecordingTransport()
    let outcome = try await HLSDownload(
      url: stream.url(on: nginx), folder: store.url.appending(path: "content"),
      journal: index.transfers, transport: transport
    ).run()

    #expect(outcome.segments == 8)
    let pieces = transport.requests.withLock { $0 }.filter { $0.url.pathExtension == "ts" }
    #expect(pieces.count == 8)
    let configured = CurlTransport.Configuration().receiveBufferSize
    for request in pieces {
      let size = CurlCall.receiveBufferSize(for: request, configured: configured)
      #expect(size <= 32 << 10, "\(request.url.lastPathComponent) reads \(size) bytes at once")
    }
  }
}
