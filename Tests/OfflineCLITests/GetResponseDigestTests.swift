import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get URL` of a large file whose server says more than its bytes (issue 43, third
/// layer), through the path a user takes (no `--connections`, no `--sha256`): nginx's
/// `Link: rel=duplicate` makes a mirror that serves ranges once the download goes over
/// ranges, its `Repr-Digest` is the SHA-256 the file is checked against (on one connection
/// too), and a wrong one leaves no file.
@Suite(.ownThreads, .timed) struct GetResponseDigestTests {
  static let size = 24 << 20

  /// The base64 of the bytes a hex digest spells.
  static func base64(hex: String) -> String {
    let bytes = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
      let start = hex.index(hex.startIndex, offsetBy: offset)
      return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
    }
    return Data(bytes).base64EncodedString()
  }

  /// A setup whose `file.bin` answers with `headers` added, at `limitRate` per connection.
  static func setup(
    _ headers: [(String, String)], size: Int = size, limitRate: String? = nil
  ) throws -> GetCommandTests.Setup {
    let adds = headers.map { "add_header \($0.0) '\($0.1)' always;" }.joined(separator: " ")
    return try GetCommandTests.Setup(
      size: size,
      options: .init(
        limitRate: limitRate, extraLocations: "location = /file.bin { \(adds) }"))
  }

  @Test func aLinkedDuplicateServesRangesAndTheFileIsCheckedAgainstTheReprDigest()
    async throws
  {
    // Large and slow enough for the download to go over ranges (more than 64 MiB left after
    // a slow start): only then are duplicates used; one connection to the end has no use
    // for them.
    let size = 80 << 20
    let body = TestData.bytes(count: size, seed: 11)
    let sha = try await TestData.sha256Hex(of: body)
    let mirror = try GetMirrorTests.Mirror(body)
    defer { mirror.nginx.stop() }
    let setup = try Self.setup(
      [
        ("Link", "<\(mirror.url)>; rel=duplicate; pri=1"),
        ("Repr-Digest", "sha-256=:\(Self.base64(hex: sha)):"),
      ], size: size, limitRate: "20m")
    #expect(setup.body == body)
    let result = try await InProcessOffline.run(
      ["get", setup.nginx.url("/file.bin").absoluteString, "-o", setup.output, "--json"],
      store: setup.store, in: setup.out)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(FileManager.default.contents(atPath: setup.output) == body)
    let finished = result.stdoutText.split(separator: "\n")
      .compactMap { try? JSONDecoder().decode(GetMirrorTests.Finished.self, from: Data($0.utf8)) }
      .first { $0.event == "finished" }
    #expect(finished?.sha256 == sha)
    let sources = try #require(finished?.sources)
    #expect(sources.map(\.url) == [setup.nginx.url("/file.bin").absoluteString, mirror.url])
    #expect(try mirror.nginx.accessLog().contains { $0.status == 206 && $0.bodyBytesSent > 1 })
  }

  @Test func aWrongReprDigestFailsTheGetAndLeavesNoFile() async throws {
    let wrong = try await TestData.sha256Hex(of: Data("another file".utf8))
    let setup = try Self.setup([("Repr-Digest", "sha-256=:\(Self.base64(hex: wrong)):")])
    let result = try await InProcessOffline.run(
      ["get", setup.nginx.url("/file.bin").absoluteString, "-o", setup.output],
      store: setup.store, in: setup.out)
    #expect(result.status == 1)
    #expect(result.stderrText.contains(wrong), "\(result.stderrText)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: setup.out.path).isEmpty)
  }
}
