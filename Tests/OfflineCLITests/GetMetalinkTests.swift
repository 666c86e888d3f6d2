import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get <file.meta4>` and a `.meta4` URL end to end against real nginx mirrors
/// (issue 43, second layer): the file's name, size and SHA-256 come from the Metalink, its
/// URLs are the sources by priority, a piece that one source served wrong is fetched again
/// alone from another, and a bad Metalink is an error naming it with nothing written.
@Suite(.ownThreads, .timed) struct GetMetalinkTests {
  static let size = 16 << 20
  static let pieceLength = 1 << 20
  static let body = TestData.bytes(count: size, seed: 4343)
  /// The piece the corrupting server serves wrong.
  static let badPiece = 9

  /// The body with one byte of ``badPiece`` changed: the same length, another file.
  static var corrupted: Data {
    var data = body
    let offset = badPiece * pieceLength + 1234
    data[offset] ^= 0xFF
    return data
  }

  static func sha256(_ data: Data) async throws -> String {
    try await TestData.sha256Hex(of: data)
  }

  /// A Metalink 4 of ``body`` named `name`, with its SHA-256 and SHA-256 pieces of
  /// `pieceLength` bytes, at `urls` in priority order.
  static func meta4(
    name: String = "disk.img", urls: [String], pieceLength: Int = pieceLength
  ) async throws -> String {
    var pieces: [String] = []
    for index in 0..<(size / pieceLength) {
      let piece = body[(index * pieceLength)..<((index + 1) * pieceLength)]
      pieces.append("      <hash>\(try await sha256(Data(piece)))</hash>")
    }
    let links = urls.enumerated().map {
      "    <url priority=\"\($0.offset + 1)\">\($0.element)</url>"
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <metalink xmlns="urn:ietf:params:xml:ns:metalink">
        <file name="\(name)">
          <size>\(size)</size>
          <hash type="sha-256">\(try await sha256(body))</hash>
          <pieces length="\(pieceLength)" type="sha-256">
      \(pieces.joined(separator: "\n"))
          </pieces>
      \(links.joined(separator: "\n"))
        </file>
      </metalink>
      """
  }

  /// The union of the byte ranges `entries` asked for (`bytes=a-b`), within `bounds`.
  static func asked(_ entries: [AccessLogEntry], within bounds: Range<Int>) -> IndexSet {
    var set = IndexSet()
    for entry in entries {
      guard let range = entry.range, range.hasPrefix("bytes=") else { continue }
      let parts = range.dropFirst(6).split(separator: "-").compactMap { Int($0) }
      guard parts.count == 2 else { continue }
      let asked = parts[0]..<(parts[1] + 1)
      guard asked.overlaps(bounds) else { continue }
      set.insert(integersIn: asked.clamped(to: bounds))
    }
    return set
  }

  /// A corrupting primary, a good but slow mirror and one without the file: the bad piece
  /// is found, fetched again alone from the good mirror, and the file is right.
  @Test func aPieceServedWrongIsFetchedAgainAloneFromAnotherSource() async throws {
    let corrupt = try GetMirrorTests.Mirror(Self.corrupted)
    let good = try GetMirrorTests.Mirror(Self.body, options: .init(limitRate: "256k"))
    let missing = try GetMirrorTests.Mirror(nil)
    defer { for server in [corrupt, good, missing] { server.nginx.stop() } }
    let folder = try TemporaryDirectory()
    let meta4 = folder.file("disk.meta4")
    try Data(
      try await Self.meta4(urls: [corrupt.url, good.url, missing.url]).utf8
    ).write(to: meta4)
    let out = folder.url.appending(path: "out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)

    let result = try await InProcessOffline.run(
      ["get", meta4.path, "--json"], store: folder.url.appending(path: "store"), in: out,
      timeout: 120)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(FileManager.default.contents(atPath: out.appending(path: "disk.img").path) == Self.body)
    let events = result.stdoutText.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let refetched = events.filter { $0["event"] as? String == "refetchingPieces" }
    #expect(refetched.map { $0["pieces"] as? [Int] } == [[Self.badPiece]])
    // The good mirror was asked for the whole bad piece (and, in the first pass, only for
    // bytes before it: it is slow, and keeps little of its first range).
    let piece = (Self.badPiece * Self.pieceLength)..<((Self.badPiece + 1) * Self.pieceLength)
    let goodLog = try good.nginx.accessLog()
    #expect(Self.asked(goodLog, within: piece) == IndexSet(integersIn: piece))
    #expect(try missing.nginx.accessLog().map(\.status) == [404])
  }

  @Test func aMetalinkURLIsFetchedAndItsFileSavedUnderItsName() async throws {
    let origin = try GetMirrorTests.Mirror(Self.body)
    defer { origin.nginx.stop() }
    try Data(try await Self.meta4(name: "named.img", urls: [origin.url]).utf8)
      .write(to: origin.root.file("file.meta4"))
    let folder = try TemporaryDirectory()
    let result = try await InProcessOffline.run(
      ["get", origin.nginx.url("/file.meta4").absoluteString],
      store: folder.url.appending(path: "store"), in: folder.url)
    #expect(result.status == 0, "\(result.stderrText) \(result.stdoutText)")
    #expect(FileManager.default.contents(atPath: folder.file("named.img").path) == Self.body)
    #expect(!FileManager.default.fileExists(atPath: folder.file("file.meta4").path))
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
  func aBadMetalinkIsAnErrorNamingItAndNothingIsWritten(text: String, mentions: String)
    async throws
  {
    let folder = try TemporaryDirectory()
    let out = folder.url.appending(path: "out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: out.appending(path: "bad.meta4"))
    let result = try await InProcessOffline.run(
      ["get", "bad.meta4"], store: folder.url.appending(path: "store"), in: out)
    #expect(result.status == 1)
    #expect(result.stderrText.contains("The Metalink "), "\(result.stderrText)")
    #expect(result.stderrText.contains("bad.meta4 cannot be downloaded"), "\(result.stderrText)")
    #expect(result.stderrText.contains(mentions), "\(result.stderrText)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["bad.meta4"])
    #expect(!FileManager.default.fileExists(atPath: folder.file("evil.bin").path))
  }

  /// Killed with SIGKILL while the pieces come from a throttled primary and mirror: every
  /// rerun goes on from the ranges on disk, and the file is right; little is fetched twice.
  @Test func aKilledMetalinkGetResumesAndTheFileIsRight() async throws {
    let first = try GetMirrorTests.Mirror(Self.body, options: .init(limitRate: "512k"))
    let second = try GetMirrorTests.Mirror(Self.body, options: .init(limitRate: "512k"))
    defer { for server in [first, second] { server.nginx.stop() } }
    let folder = try TemporaryDirectory()
    let meta4 = folder.file("disk.meta4")
    try Data(try await Self.meta4(urls: [first.url, second.url]).utf8).write(to: meta4)
    let output = folder.file("disk.img").path
    let store = folder.url.appending(path: "store")
    let arguments = ["get", meta4.path, "-o", output, "--quiet"]
    let kills = try await OfflineBinary.killRepeatedly(
      arguments, store: store, times: 3, pause: 500_000...900_000)
    #expect(kills >= 2)
    let last = try await OfflineBinary.run(["--store", store.path] + arguments, timeout: 120)
    #expect(last.status == 0, "\(last.stderrText)")
    #expect(FileManager.default.contents(atPath: output) == Self.body)
    let sent = try first.bodyBytesSent() + second.bodyBytesSent()
    #expect(
      sent - Int64(Self.size) < Int64(Self.size) / 4, "fetched \(sent - Int64(Self.size)) twice")
  }
}
