import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 15, the cost of the chunk digests, through whole transfers: with the hashes read back
/// behind the writer (``HashBehind``) instead of inside the body callback, the file's SHA-256
/// and its chunk digests must still be those of the exact bytes on disk after a kill and a
/// resume, after a resume that the origin answers with a new file while the old bytes are
/// being read back, and when four connections write the file out of order.
@Suite(.timed) struct HashBehindTransferTests {
  static let computing = Options.quick { $0.computesSHA256 = true }

  /// A kill leaves 37 MiB and 5 bytes in the part with their journal (this boot): the resume
  /// reads those bytes back from the disk (chunk 9, cut by the kill, is hashed across the
  /// resume), so both hashes are those of the file, not of what this run received.
  @Test func aResumeAfterAKillGivesTheHashesOfTheBytesOnDisk() async throws {
    let body = TestData.bytes(count: 48 << 20 + 999, seed: 71)
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body)))
    let fixture = try TransferFixture()
    let kept = 37 << 20 + 5
    try fixture.seedPart(body.prefix(kept), url: server.url("/f"))

    let outcome = try await fixture.transfer(server.url("/f"), configuration: Self.computing).run()

    #expect(server.requests(for: "/f").first?.headers["range"] == "bytes=\(kept)-")
    #expect(outcome.bytesReceived == Int64(body.count - kept))
    #expect(fileData(outcome.destination) == body)
    #expect(outcome.sha256 == HashBehindTests.sha(body))
    #expect(outcome.chunkSHA256 == HashBehindTests.chunkDigests(body))
  }

  /// A small file resumed from 10,000 bytes an earlier run left (this boot): they are read
  /// back and hashed before the new bytes, which are hashed as they reach the part (issue
  /// 14, HLS CPU, fourth pass: only a file written from its first byte skips the read-back).
  @Test func aSmallFileResumedFromAPartHashesTheEarlierBytesToo() async throws {
    let body = TestData.bytes(count: 90_000, seed: 73)
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body)))
    let fixture = try TransferFixture()
    try fixture.seedPart(body.prefix(10_000), url: server.url("/f"))

    let outcome = try await fixture.transfer(server.url("/f"), configuration: Self.computing).run()

    #expect(server.requests(for: "/f").first?.headers["range"] == "bytes=10000-")
    #expect(outcome.bytesReceived == 80_000)
    #expect(fileData(outcome.destination) == body)
    #expect(outcome.sha256 == HashBehindTests.sha(body))
  }

  /// The resume of a 256 MiB part is answered with a new 24 MiB file (`If-Range` no longer
  /// matches: 200). The old bytes were being read back while the request went out (two
  /// SHA-256 passes over 256 MiB take longer than the head takes to come); none of them may
  /// reach the hashes of the new file.
  @Test func aResumeAnsweredWithANewFileHashesOnlyTheNewBytes() async throws {
    let new = TestData.bytes(count: 24 << 20 + 17, seed: 73)
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: new, etag: "\"v2\"")))
    let fixture = try TransferFixture()
    try fixture.seedPart(Data(), url: server.url("/f"), journalETag: "\"v1\"")
    let part = URL(fileURLWithPath: fixture.destination() + ".part")
    try TestData.writeFile(at: part, count: 256 << 20, seed: 72)
    let log = EventLog()

    let outcome = try await fixture.transfer(server.url("/f"), configuration: Self.computing)
      .run(onEvent: log.record)

    #expect(log.restartReasons == [.resourceChanged])
    #expect(fileData(outcome.destination) == new)
    #expect(outcome.sha256 == HashBehindTests.sha(new))
    #expect(outcome.chunkSHA256 == HashBehindTests.chunkDigests(new))
  }

  /// Four connections write 64 MiB in ranges of 16 MiB at once, so chunks are completed out
  /// of order by different writers (and ranges split when a connection is idle): the list is
  /// the digest of each 4 MiB of the file.
  @Test func fourConnectionsWritingOutOfOrderGiveTheChunkDigestsOfTheFile() async throws {
    let root = try TemporaryDirectory(prefix: "offlinekit-www")
    let body = TestData.bytes(count: 64 << 20 + 3, seed: 74)
    try body.write(to: root.file("big.bin"))
    let nginx = try NginxServer(root: root.url)
    try nginx.start()
    let fixture = try TransferFixture()

    let outcome = try await fixture.transfer(
      nginx.url("/big.bin"),
      configuration: .quick {
        $0.connections = .fixed(4)
        $0.computesSHA256 = true
      }
    ).run()

    let ranged = try await nginx.accessLog(minimumCount: 5).filter {
      $0.status == 206 && $0.range != "bytes=0-0"
    }
    #expect(ranged.count >= 4, "fetched in ranges")
    #expect(fileData(outcome.destination) == body)
    #expect(outcome.sha256 == HashBehindTests.sha(body))
    #expect(outcome.chunkSHA256 == HashBehindTests.chunkDigests(body))
  }
}
