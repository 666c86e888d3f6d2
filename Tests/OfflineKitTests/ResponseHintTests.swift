import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// What the first response of a file fetched over ranges says beside its bytes (issue 43,
/// third layer), from real nginx (`add_header`): `Link: rel=duplicate` (RFC 6249) adds
/// mirrors, and `Repr-Digest` (RFC 9530) or the older `Digest` gives the SHA-256 that every
/// source must agree on and that the file is checked against.
@Suite(.serialized, .timed) struct ResponseHintTests {
  static let body = MirrorTransferTests.body

  /// The base64 of the bytes a hex digest spells.
  static func base64(hex: String) -> String {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    return Data(bytes).base64EncodedString()
  }

  /// nginx serving `f.bin` with `headers` (name, value) added to its answers.
  static func origin(_ headers: [(String, String)]) async throws -> (
    NginxServer, TemporaryDirectory
  ) {
    let adds = headers.map { "add_header \($0.0) '\($0.1)' always;" }.joined(separator: " ")
    return try await MirrorTransferTests.mirror(
      ["f.bin": body], .init(extraLocations: "location = /f.bin { \(adds) }"))
  }

  func run(_ url: URL, log: EventLog) async throws -> (Transfer.Outcome, TransferFixture) {
    let fixture = try TransferFixture()
    let outcome = try await fixture.transfer(
      url, configuration: .quick { $0.connections = .fixed(4) }
    ).run(onEvent: log.record)
    return (outcome, fixture)
  }

  @Test func linkedDuplicatesServeTheFileAndItIsCheckedAgainstTheReprDigest() async throws {
    let sha = try await TestData.sha256Hex(of: Self.body)
    let (mirror, mirrorRoot) = try await MirrorTransferTests.mirror(["f.bin": Self.body])
    let (other, otherRoot) = try await MirrorTransferTests.mirror(["f.bin": Self.body])
    let (origin, originRoot) = try await Self.origin([
      ("Link", "<\(other.url("/f.bin").absoluteString)>; rel=duplicate; pri=2; geo=de"),
      ("Link", "<\(mirror.url("/f.bin").absoluteString)>; rel=duplicate; pri=1"),
      ("Repr-Digest", "sha-256=:\(Self.base64(hex: sha)):"),
    ])
    defer {
      withExtendedLifetime((mirrorRoot, otherRoot, originRoot)) {}
      for server in [mirror, other, origin] { server.stop() }
    }
    let log = EventLog()
    let (outcome, fixture) = try await run(origin.url("/f.bin"), log: log)
    #expect(outcome.sha256 == sha)
    #expect(outcome.check == .sha256)
    #expect(withExtendedLifetime(fixture) { fileData(outcome.destination) } == Self.body)
    // By `pri`: the mirror first, then the other.
    #expect(outcome.sources.map(\.url) == [origin, mirror, other].map { $0.url("/f.bin") })
    #expect(outcome.sources.reduce(0) { $0 + $1.bytes } == Int64(Self.body.count))
    #expect(outcome.sources.dropFirst().contains { $0.bytes > 0 }, "a duplicate served ranges")
  }

  @Test func aWrongReprDigestIsATypedErrorAndNoFileIsLeft() async throws {
    let wrong = try await TestData.sha256Hex(of: Data("another file".utf8))
    let (origin, originRoot) = try await Self.origin([
      ("Repr-Digest", "sha-256=:\(Self.base64(hex: wrong)):")
    ])
    defer {
      withExtendedLifetime(originRoot) {}
      origin.stop()
    }
    let fixture = try TransferFixture()
    let transfer = fixture.transfer(
      origin.url("/f.bin"), configuration: .quick { $0.connections = .fixed(4) })
    do throws(Transfer.Error) {
      _ = try await transfer.run()
      Issue.record("a file whose Repr-Digest differs was passed off as complete")
    } catch {
      #expect(error.code == .checksumMismatch, "\(error)")
      #expect(error.description.contains(wrong), "\(error.description)")
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))
    #expect(!FileManager.default.fileExists(atPath: fixture.destination() + ".part"))
  }

  /// A slice of a resource (an HLS byte-range segment, a DASH `SegmentBase` part) is not held
  /// to the resource's digest, which covers the whole of it; a file on one connection is.
  @Test func aSliceIsNotHeldToTheWholeResourcesDigestAndAWholeFileIs() async throws {
    let sha = try await TestData.sha256Hex(of: Self.body)
    let (origin, originRoot) = try await Self.origin([
      ("Repr-Digest", "sha-256=:\(Self.base64(hex: sha)):")
    ])
    defer {
      withExtendedLifetime(originRoot) {}
      origin.stop()
    }
    let fixture = try TransferFixture()
    let slice = try await fixture.transfer(
      origin.url("/f.bin"), to: fixture.destination("slice.bin"),
      configuration: .quick { $0.slice = Transfer.Slice(offset: 1000, length: 5000) }
    ).run()
    #expect(fileData(slice.destination) == Self.body[1000..<6000])
    let whole = try await fixture.transfer(origin.url("/f.bin"), configuration: .quick { _ in })
      .run()
    #expect(whole.sha256 == sha)
    #expect(whole.check == .sha256)
  }

  /// The older `Digest` (RFC 3230) is read when there is no `Repr-Digest`; a duplicate that
  /// tells another SHA-256 is dropped, named, after its probe alone.
  @Test func aDuplicateThatTellsAnotherDigestIsDroppedAfterItsProbe() async throws {
    let sha = try await TestData.sha256Hex(of: Self.body)
    let wrong = try await TestData.sha256Hex(of: Data("another file".utf8))
    let (liar, liarRoot) = try await Self.origin([
      ("Repr-Digest", "sha-256=:\(Self.base64(hex: wrong)):")
    ])
    let (origin, originRoot) = try await Self.origin([
      ("Link", "<\(liar.url("/f.bin").absoluteString)>; rel=duplicate"),
      ("Digest", "SHA-256=\(Self.base64(hex: sha))"),
    ])
    defer {
      withExtendedLifetime((liarRoot, originRoot)) {}
      for server in [liar, origin] { server.stop() }
    }
    let log = EventLog()
    let (outcome, _) = try await run(origin.url("/f.bin"), log: log)
    #expect(outcome.sha256 == sha)
    #expect(outcome.check == .sha256)
    let dropped = MirrorTransferTests.dropped(log)
    #expect(dropped[liar.url("/f.bin")]?.contains(wrong) == true, "\(dropped)")
    #expect(try liar.accessLog().map(\.range) == ["bytes=0-0"])
    #expect(outcome.sources.last?.dropped != nil)
  }
}
