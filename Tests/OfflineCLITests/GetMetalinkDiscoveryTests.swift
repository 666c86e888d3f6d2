import Foundation
import TestSupport
import TestTiming
import Testing

/// A plain `get URL` that meets a Metalink (issue 43): by the response's
/// `Content-Type` (`application/metalink4+xml`, `application/metalink+xml`) or by RFC 6249
/// `Link: <…>; rel=describedby; type="application/metalink4+xml"`, not only by a `.meta4`
/// name. The download is then the Metalink's (its name, sources and checks); a bad one is
/// an error naming it with nothing written.
@Suite(.ownThreads, .timed) struct GetMetalinkDiscoveryTests {
  typealias Mirror = GetMirrorTests.Mirror

  /// nginx serving `latest` as a Metalink by its media type, and `file.bin` with a `Link`
  /// to `file.bin.meta4` (the document's text is written by the test).
  static func origin(_ data: Data, mediaType: String = "application/metalink4+xml") throws
    -> Mirror
  {
    try Mirror(
      data,
      options: .init(
        extraLocations: """
          location = /latest { default_type \(mediaType); }
          location = /file.bin {
            add_header Link '<file.bin.meta4>; rel=describedby; type="application/metalink4+xml"';
          }
          """))
  }

  @Test(arguments: ["application/metalink4+xml", "application/metalink+xml"])
  func aURLAnsweredWithAMetalinkMediaTypeIsDownloadedAsItsFile(mediaType: String) async throws {
    let origin = try Self.origin(GetMetalinkTests.body, mediaType: mediaType)
    defer { origin.nginx.stop() }
    try Data(try await GetMetalinkTests.meta4(name: "named.img", urls: [origin.url]).utf8)
      .write(to: origin.root.file("latest"))
    let folder = try TemporaryDirectory()
    let result = try await InProcessOffline.run(
      ["get", origin.nginx.url("/latest").absoluteString],
      store: folder.url.appending(path: "store"), in: folder.url, timeout: 120)
    #expect(result.status == 0, "\(result.stderrText) \(result.stdoutText)")
    #expect(
      FileManager.default.contents(atPath: folder.file("named.img").path) == GetMetalinkTests.body)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(left == ["named.img", "store"], "\(left)")
  }

  /// The file's own URL names its Metalink: the Metalink's mirror serves bytes too, a piece
  /// the origin serves wrong is fetched again from the mirror, and the file is right.
  @Test func aFileWhoseAnswerLinksItsMetalinkIsCheckedByPieceAndUsesItsMirrors() async throws {
    let origin = try Self.origin(GetMetalinkTests.corrupted)
    let mirror = try Mirror(GetMetalinkTests.body)
    defer { for server in [origin, mirror] { server.nginx.stop() } }
    try Data(
      try await GetMetalinkTests.meta4(name: "disk.img", urls: [origin.url, mirror.url]).utf8
    ).write(to: origin.root.file("file.bin.meta4"))
    let folder = try TemporaryDirectory()
    let result = try await InProcessOffline.run(
      ["get", origin.url, "--json"], store: folder.url.appending(path: "store"), in: folder.url,
      timeout: 120)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(
      FileManager.default.contents(atPath: folder.file("disk.img").path) == GetMetalinkTests.body)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(left == ["disk.img", "store"], "\(left)")
    #expect(try mirror.bodyBytesSent() > 0)
    let piece = GetMetalinkTests.badPiece * GetMetalinkTests.pieceLength
    let range = piece..<(piece + GetMetalinkTests.pieceLength)
    #expect(
      GetMetalinkTests.asked(try mirror.nginx.accessLog(), within: range)
        == IndexSet(integersIn: range))
  }

  /// A file whose answer carries no Metalink is downloaded as it is, named from its URL.
  @Test func aFileWithoutAMetalinkIsDownloadedAsItIs() async throws {
    let plain = try Mirror(GetMetalinkTests.body)
    defer { plain.nginx.stop() }
    let folder = try TemporaryDirectory()
    let result = try await InProcessOffline.run(
      ["get", plain.url], store: folder.url.appending(path: "store"), in: folder.url,
      timeout: 120)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(
      FileManager.default.contents(atPath: folder.file("file.bin").path) == GetMetalinkTests.body)
  }

  @Test(arguments: [
    ("not xml at all", "not"),
    (
      #"<metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="a.bin"><url>ftp://127.0.0.1/a.bin</url></file></metalink>"#,
      "URL"
    ),
    (
      #"<metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="../evil.bin"><url>http://127.0.0.1:9/a.bin</url></file></metalink>"#,
      ".."
    ),
  ])
  func aBadLinkedMetalinkIsAnErrorNamingItAndNothingIsWritten(text: String, mentions: String)
    async throws
  {
    let origin = try Self.origin(GetMetalinkTests.body)
    defer { origin.nginx.stop() }
    try Data(text.utf8).write(to: origin.root.file("file.bin.meta4"))
    let folder = try TemporaryDirectory()
    let out = folder.url.appending(path: "out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let result = try await InProcessOffline.run(
      ["get", origin.url], store: folder.url.appending(path: "store"), in: out)
    #expect(result.status == 1)
    #expect(
      result.stderrText.contains("file.bin.meta4 cannot be downloaded"), "\(result.stderrText)")
    #expect(result.stderrText.contains(mentions), "\(result.stderrText)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.file("evil.bin").path))
    // The file's answer was cut at its head: far less than the file came.
    let sent = try origin.nginx.accessLog().filter { $0.uri == "/file.bin" }
      .reduce(Int64(0)) { $0 + $1.bodyBytesSent }
    #expect(sent < Int64(GetMetalinkTests.size / 2), "\(sent)")
  }
}
