import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// One file from its URL and mirrors, each a real nginx on loopback (issue 43, second
/// layer): every mirror is checked before any of its bytes are used, one that disagrees is
/// dropped and named, the others share the ranges, and the file is the origin's.
@Suite(.serialized, .timed) struct MirrorTransferTests {
  static let size = 24 << 20
  static let body = TestData.bytes(count: size, seed: 43)

  /// An nginx serving `files` (name: bytes) with `options`, and the folder it serves.
  static func mirror(_ files: [String: Data], _ options: NginxServer.Options = .init())
    async throws -> (NginxServer, TemporaryDirectory)
  {
    try await offPool {
      let root = try TemporaryDirectory(prefix: "offlinekit-mirror")
      for (name, data) in files { try data.write(to: root.file(name)) }
      let nginx = try NginxServer(root: root.url, options: options)
      try nginx.start()
      return (nginx, root)
    }
  }

  static func dropped(_ log: EventLog) -> [URL: String] {
    var dropped: [URL: String] = [:]
    for case .sourceDropped(let url, let reason) in log.events { dropped[url] = reason }
    return dropped
  }

  /// The primary, a fast mirror, a slow one (`limit_rate`), one serving a file of another
  /// length and one without the file: the two that disagree are dropped before any of their
  /// bytes are used (one probe each in their logs), and the file is the origin's.
  @Test func mirrorsThatAgreeShareTheFileAndThoseThatDisagreeAreDroppedBeforeUse()
    async throws
  {
    let (primary, primaryRoot) = try await Self.mirror(["f.bin": Self.body])
    let (fast, fastRoot) = try await Self.mirror(["f.bin": Self.body])
    let (slow, slowRoot) = try await Self.mirror(["f.bin": Self.body], .init(limitRate: "256k"))
    let longer = Self.body + Data([0])
    let (other, otherRoot) = try await Self.mirror(["f.bin": longer])
    let (missing, missingRoot) = try await Self.mirror([:])
    defer {
      withExtendedLifetime((primaryRoot, fastRoot, slowRoot, otherRoot, missingRoot)) {}
      for server in [primary, fast, slow, other, missing] { server.stop() }
    }
    let sha = try await TestData.sha256Hex(of: Self.body)
    let fixture = try TransferFixture()
    let log = EventLog()
    let mirrors = [fast, slow, other, missing].map { $0.url("/f.bin") }
    let started = ContinuousClock.now
    let outcome = try await fixture.transfer(
      primary.url("/f.bin"),
      configuration: .quick {
        $0.mirrors = mirrors
        $0 = $0.expecting(sha256: sha)
      }
    ).run(onEvent: log.record)
    let elapsed = started.duration(to: .now)

    #expect(outcome.sha256 == sha)
    #expect(fileData(outcome.destination) == Self.body)
    let dropped = Self.dropped(log)
    #expect(
      dropped.keys.sorted { $0.absoluteString < $1.absoluteString }
        == [mirrors[2], mirrors[3]].sorted { $0.absoluteString < $1.absoluteString })
    #expect(dropped[mirrors[2]]?.contains("\(Self.size + 1)") == true)
    #expect(dropped[mirrors[3]]?.contains("404") == true)
    // Refused before any of their bytes: one one-byte probe each.
    let otherLog = try other.accessLog()
    #expect(otherLog.map(\.range) == ["bytes=0-0"])
    let missingLog = try missing.accessLog()
    #expect(missingLog.map(\.status) == [404])

    let sources = outcome.sources
    #expect(sources.map(\.url) == [primary.url("/f.bin")] + mirrors)
    #expect(sources.reduce(0) { $0 + $1.bytes } == Int64(Self.size), "each byte once")
    #expect(sources[1].bytes > 0, "the fast mirror served ranges")
    #expect(sources[2].bytes < sources[1].bytes, "the slow mirror served less than the fast")
    #expect(sources[3].bytes == 0 && sources[4].bytes == 0)
    #expect(sources[3].dropped != nil && sources[4].dropped != nil)
    // At 256 KiB/s the slow mirror alone would take 96 s and one range of the first plan
    // 12 s; it never holds the end (about 3 s on loopback, most of it the slow mirror's
    // last 512 KiB).
    #expect(elapsed < .seconds(10), "\(elapsed)")
  }

  /// A mirror that loses the file mid-way (404 after its probe agreed) rests, and the
  /// others finish the file.
  @Test func aMirrorThatLosesTheFileMidwayIsLeftAndTheFileCompletes() async throws {
    let (primary, primaryRoot) = try await Self.mirror(["f.bin": Self.body])
    let (flaky, flakyRoot) = try await Self.mirror(["f.bin": Self.body])
    defer {
      withExtendedLifetime((primaryRoot, flakyRoot)) {}
      primary.stop()
      flaky.stop()
    }
    let sha = try await TestData.sha256Hex(of: Self.body)
    let fixture = try TransferFixture()
    let log = EventLog()
    let running = Task {
      try await fixture.transfer(
        primary.url("/f.bin"),
        configuration: .quick {
          $0.mirrors = [flaky.url("/f.bin")]
          $0 = $0.expecting(sha256: sha)
        }
      ).run(onEvent: log.record)
    }
    // Once its probe is in, the mirror loses the file.
    for _ in 0..<500 where (try? flaky.accessLog().isEmpty) ?? true {
      try await Task.sleep(for: .milliseconds(10))
    }
    try FileManager.default.removeItem(at: flakyRoot.file("f.bin"))
    let outcome = try await running.value
    #expect(outcome.sha256 == sha)
    #expect(fileData(outcome.destination) == Self.body)
    #expect(outcome.sources.reduce(0) { $0 + $1.bytes } == Int64(Self.size))
  }

  @Test func aMirrorThatIsNotHTTPIsRefusedNamingItBeforeAnythingIsWritten() async throws {
    let fixture = try TransferFixture()
    let transfer = fixture.transfer(
      URL(string: "http://127.0.0.1:9/f.bin")!,
      configuration: .quick { $0.mirrors = [URL(string: "ftp://127.0.0.1/f.bin")!] })
    do throws(Transfer.Error) {
      _ = try await transfer.run()
      Issue.record("a download with an ftp mirror went ahead")
    } catch {
      #expect(error.code == .invalidMirror)
      #expect(error.description.contains("ftp://127.0.0.1/f.bin"))
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination() + ".part"))
    #expect(try fixture.index.transfers.record(forDestination: fixture.destination()) == nil)
  }

  /// A primary that serves one piece wrong and a good mirror: the piece is fetched again,
  /// the file and its 4 MiB chunk digests are the origin's (the chunks of the bad piece
  /// hashed again from disk, not kept from the bad bytes).
  @Test func aMendedPieceLeavesTheFileAndItsChunkDigestsRight() async throws {
    let pieceLength = 1 << 20
    var corrupted = Self.body
    corrupted[13 * pieceLength + 7] ^= 0xFF
    let (primary, primaryRoot) = try await Self.mirror(["f.bin": corrupted])
    let (good, goodRoot) = try await Self.mirror(["f.bin": Self.body], .init(limitRate: "256k"))
    defer {
      withExtendedLifetime((primaryRoot, goodRoot)) {}
      primary.stop()
      good.stop()
    }
    var hashes: [String] = []
    for index in 0..<(Self.size / pieceLength) {
      let piece = Self.body[(index * pieceLength)..<((index + 1) * pieceLength)]
      hashes.append(try await TestData.sha256Hex(of: Data(piece)))
    }
    let sha = try await TestData.sha256Hex(of: Self.body)
    let fixture = try TransferFixture()
    let log = EventLog()
    let outcome = try await fixture.transfer(
      primary.url("/f.bin"),
      configuration: .quick {
        $0.mirrors = [good.url("/f.bin")]
        $0.pieces = PieceChecks(length: Int64(pieceLength), size: Int64(Self.size), hashes: hashes)
        $0 = $0.expecting(sha256: sha)
      }
    ).run(onEvent: log.record)
    #expect(outcome.sha256 == sha)
    #expect(fileData(outcome.destination) == Self.body)
    var refetched: [[Int]] = []
    for case .refetchingPieces(let pieces) in log.events { refetched.append(pieces) }
    #expect(refetched == [[13]])
    let chunk = Int(ChunkDigests.chunkSize)
    var expected: [String] = []
    for start in stride(from: 0, to: Self.size, by: chunk) {
      expected.append(try await TestData.sha256Hex(of: Data(Self.body[start..<(start + chunk)])))
    }
    #expect(outcome.chunkSHA256 == expected)
  }
}
