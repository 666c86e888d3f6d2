import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// How many pieces of a stream go at once (issue 14, HLS on a latency-bound link): a fixed
/// eight whatever the protocol made 1000 segments at 40 ms RTT take 1000 / 8 round trips,
/// and HTTP/2 gained nothing over HTTP/1.1.
@Suite(.timed) struct StreamConcurrencyTests {
  /// Pins issue 14: over HTTP/2 at most eight pieces were in flight; they are streams on one
  /// connection, so many more go at once, and the copy still decodes like the origin.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func piecesOverHTTP2GoManyAtOnceOnOneConnection() async throws {
    let stream = try await HLSOrigin(
      .manySegments, segmentCount: 32,
      options: .init(limitRate: "8k", tls: true, logsConnections: true))
    defer { stream.nginx.stop() }
    let caFile = try #require(stream.nginx.certificatePath).path
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let folder = store.url.appending(path: "content")
    _ = try await HLSDownload(
      url: stream.url, folder: folder, journal: index.transfers,
      transport: CurlTransport(configuration: .init(trustedCAFile: caFile))
    ).run()

    let pieces = try await stream.nginx.accessLog(minimumCount: 33).filter {
      !$0.uri.hasSuffix(".m3u8")
    }
    #expect(pieces.count == 32)
    #expect(pieces.allSatisfy { $0.protocol == "HTTP/2.0" }, "\(pieces.map(\.protocol))")
    #expect(Set(pieces.compactMap(\.connection)).count == 1, "one multiplexed connection")
    let most = pieces.mostAtOnce
    #expect(most > 8, "\(most) pieces at once")
    let origin = try await FFmpeg.decodedMD5(stream.files.entryFile.path, stream: "v:0")
    let copy = try await FFmpeg.decodedMD5(folder.appending(path: "index.m3u8").path, stream: "v:0")
    #expect(copy.errors.isEmpty, "\(copy.errors)")
    #expect(copy.md5 == origin.md5)
  }

  /// Pins issue 14: over HTTP/1.1 at most eight connections were opened, however much each
  /// one more raised the throughput (an origin that caps each connection's rate).
  @Test(.enabled(if: FFmpeg.isAvailable))
  func piecesOverHTTP1OpenMoreConnectionsWhileThatPays() async throws {
    // nginx sends a second's worth at once and the rest when its clock (whole seconds)
    // moves on: at 8k every segment (8-14 KB) takes one second. The window of the second
    // second always steps up (there is none before it), so the third second has twelve.
    let stream = try await HLSOrigin(
      .manySegments, segmentCount: 32, options: .init(limitRate: "8k", logsConnections: true))
    defer { stream.nginx.stop() }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    _ = try await HLSDownload(
      url: stream.url, folder: store.url.appending(path: "content"),
      journal: index.transfers, transport: CurlTransport()
    ).run()

    let pieces = try await stream.nginx.accessLog(minimumCount: 33).filter {
      !$0.uri.hasSuffix(".m3u8")
    }
    #expect(pieces.count == 32)
    let most = pieces.mostAtOnce
    #expect(most > 8, "\(most) pieces at once")
    #expect(most <= 16, "\(most) pieces at once, above the bound of 16 connections")
  }

  /// Pins issue 14: an origin that can answer only three requests at once and refuses the
  /// rest (503, or 429) kept getting eight at once, each refused piece retried into the
  /// same wall. The stream backs off to what the origin takes, and still finishes whole.
  @Test(arguments: [503, 429])
  func anOverloadedOriginIsBackedOffFromAndTheStreamFinishes(status: Int) async throws {
    let origin = try OverloadedOrigin(segments: 40, capacity: 3, status: status)
    _ = try await origin.download().run()

    #expect(try origin.segmentsOnDisk() == origin.segments)
    #expect(
      origin.server.overloadRefusals < origin.segments.count,
      "\(origin.server.overloadRefusals) requests refused for \(origin.segments.count) segments")
  }
}
