import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

/// Metalink pieces checked as they land (issue 43, third layer), against real nginx sources:
/// a bad piece is fetched again alone while the rest downloads, and the pieces found right
/// are journalled, so a run killed with SIGKILL and run again asks for none of them.
@Suite(.ownThreads, .timed) struct GetMetalinkPieceTests {
  typealias Mirror = GetMirrorTests.Mirror
  static let pieceLength = GetMetalinkTests.pieceLength

  /// How many times each byte of `bounds` was sent in `entries` (a 206's first byte plus
  /// the body bytes nginx sent); the one-byte probes (`bytes=0-0`) are left out.
  static func sent(_ entries: [AccessLogEntry], into counts: inout [UInt8]) {
    for entry in entries where entry.status == 206 && entry.range != "bytes=0-0" {
      guard let range = entry.range, range.hasPrefix("bytes="),
        let start = range.dropFirst(6).split(separator: "-").first.flatMap({ Int($0) })
      else { continue }
      let end = min(counts.count, start + Int(entry.bodyBytesSent))
      for offset in start..<max(start, end) { counts[offset] &+= 1 }
    }
  }

  /// How many times each byte of the file was sent by `mirrors`, by their access logs, once
  /// every byte is counted or 20 s have passed. nginx logs a request when it ends, and a
  /// request our client cut (a split, a steal) may end a moment after `get` returned: read
  /// at once on a loaded machine, its bytes were missing (the full suite of session 40).
  static func settledCounts(of mirrors: [GetMirrorTests.Mirror]) async throws -> [UInt8] {
    let deadline = ContinuousClock.now + .seconds(20)
    while true {
      var counts = [UInt8](repeating: 0, count: GetMetalinkTests.size)
      for mirror in mirrors { sent(try mirror.nginx.accessLog(), into: &counts) }
      if !counts.contains(0) || ContinuousClock.now > deadline { return counts }
      try await Task.sleep(for: .milliseconds(100))
    }
  }

  /// The pieces of `length` bytes that `entries`' `Range` headers ask for (probes left out).
  static func piecesAsked(_ entries: [AccessLogEntry], length: Int) -> Set<Int> {
    var pieces = Set<Int>()
    for entry in entries where entry.range != "bytes=0-0" {
      guard let range = entry.range, range.hasPrefix("bytes=") else { continue }
      let bounds = range.dropFirst(6).split(separator: "-").compactMap { Int($0) }
      guard bounds.count == 2 else { continue }
      pieces.formUnion((bounds[0] / length)...(bounds[1] / length))
    }
    return pieces
  }

  /// A primary that serves one piece wrong and a good, slower mirror: the bad piece is
  /// fetched again and nothing else is. The sources' bytes written add up to the file and
  /// that one piece, exactly: a request cut by a split or an end-game takeover stops writing
  /// where the other request begins.
  ///
  /// What the origins *sent* twice is not bounded here: a cut request's origin has sent
  /// whatever the socket took past the cut, and that grows with how late the client reads.
  /// nginx's `limit_rate` is an average since the request began, so it catches up on a
  /// reader that paused: 360 KB read, a 3 s pause, and the log said 1,081,344 bytes sent
  /// (CI, the full suite: 640 KiB of the last piece sent twice after a slow-mirror takeover).
  @Test func onlyTheBadPieceIsFetchedAgainAndTheFileIsRight() async throws {
    let corrupt = try Mirror(GetMetalinkTests.corrupted)
    let good = try Mirror(GetMetalinkTests.body, options: .init(limitRate: "256k"))
    defer { for server in [corrupt, good] { server.nginx.stop() } }
    let result = try await GetMetalinkTests.getExpectingTheFile([corrupt.url, good.url])
    let refetched = result.jsonEvents(named: "refetchingPieces")
    #expect(refetched.map { $0["pieces"] as? [Int] } == [[GetMetalinkTests.badPiece]])
    // The finished event says which source served the bad piece, and what each wrote.
    let finished = result.jsonEvents(named: "finished").first
    let sources = try #require(finished?["sources"] as? [[String: Any]])
    #expect(sources.first?["url"] as? String == corrupt.url)
    #expect(sources.first?["badPieces"] as? Int == 1, "\(sources)")
    let written = sources.compactMap { $0["bytes"] as? Int }
    #expect(written.count == 2)
    #expect(
      written.reduce(0, +) == GetMetalinkTests.size + Self.pieceLength,
      "every byte written once, the bad piece twice: \(sources)")
    // The fast source goes on serving after its bad piece (each piece is checked): it
    // rested 30 s before, and the 256 KiB/s mirror was left with half the file.
    #expect(
      (written.first ?? 0) > GetMetalinkTests.size * 5 / 8,
      "the corrupt but fast source served most of the file: \(sources)")

    let counts = try await Self.settledCounts(of: [corrupt, good])
    #expect(!counts.contains(0), "every byte was sent")
    let start = GetMetalinkTests.badPiece * Self.pieceLength
    let bad = start..<(start + Self.pieceLength)
    #expect(counts[bad].allSatisfy { $0 >= 2 }, "the bad piece was sent again whole")
  }

  /// A Metalink 3 document (`.metalink`, the format MirrorBrain and mirrorbits still
  /// serve) of ``GetMetalinkTests/body`` at `urls`, by `preference`, with SHA-256 pieces.
  static func metalink3(urls: [String]) async throws -> String {
    let size = GetMetalinkTests.size
    var pieces: [String] = []
    for index in 0..<(size / pieceLength) {
      let piece = GetMetalinkTests.body[(index * pieceLength)..<((index + 1) * pieceLength)]
      let hash = try await GetMetalinkTests.sha256(Data(piece))
      pieces.append("<hash piece=\"\(index)\">\(hash)</hash>")
    }
    let links = urls.enumerated().map {
      "<url type=\"http\" preference=\"\(100 - $0.offset)\">\($0.element)</url>"
    }
    return """
      <?xml version="1.0" encoding="utf-8"?>
      <metalink version="3.0" xmlns="http://www.metalinker.org/">
        <files><file name="disk.img"><size>\(size)</size>
          <verification>
            <hash type="sha256">\(try await GetMetalinkTests.sha256(GetMetalinkTests.body))</hash>
            <pieces length="\(pieceLength)" type="sha256">\(pieces.joined())</pieces>
          </verification>
          <resources>\(links.joined())</resources>
        </file></files>
      </metalink>
      """
  }

  /// A Metalink 3 file is read like a Metalink 4: its URLs by preference are the sources and
  /// its pieces are checked, so the piece the first source serves wrong is fetched again.
  @Test func aMetalink3FileIsDownloadedWithItsPiecesChecked() async throws {
    let corrupt = try Mirror(GetMetalinkTests.corrupted)
    let good = try Mirror(GetMetalinkTests.body, options: .init(limitRate: "256k"))
    defer { for server in [corrupt, good] { server.nginx.stop() } }
    let folder = try TemporaryDirectory()
    try Data(try await Self.metalink3(urls: [corrupt.url, good.url]).utf8)
      .write(to: folder.file("disk.metalink"))
    let result = try await InProcessOffline.run(
      ["get", "disk.metalink", "--json"], store: folder.url.appending(path: "store"),
      in: folder.url, timeout: 120)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(
      FileManager.default.contents(atPath: folder.file("disk.img").path) == GetMetalinkTests.body)
    let refetched = result.stdoutText.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }.filter { $0["event"] as? String == "refetchingPieces" }
    #expect(refetched.map { $0["pieces"] as? [Int] } == [[GetMetalinkTests.badPiece]])
  }

  /// The pieces a killed run found right, journalled before the kill, are never asked for by
  /// the run that goes on; the file is right.
  @Test func aRunAfterAKillAsksForNoVerifiedPiece() async throws {
    // 256 KiB pieces over connections of 128 KiB/s each: each connection's first piece lands
    // after about 2 s, the file (8 to 16 connections with mirrors) after 8 s or more, so the
    // kill falls between.
    let length = 256 << 10
    let first = try Mirror(GetMetalinkTests.body, options: .init(limitRate: "128k"))
    let second = try Mirror(GetMetalinkTests.body, options: .init(limitRate: "128k"))
    defer { for server in [first, second] { server.nginx.stop() } }
    let folder = try TemporaryDirectory()
    let meta4 = folder.file("disk.meta4")
    try Data(
      try await GetMetalinkTests.meta4(urls: [first.url, second.url], pieceLength: length).utf8
    ).write(to: meta4)
    let output = folder.file("disk.img").path
    let store = folder.url.appending(path: "store")
    let arguments = ["get", meta4.path, "-o", output, "--quiet"]

    let process = try OfflineBinary.start(arguments, store: store)
    var verified = Set<Int>()
    let deadline = ContinuousClock.now + .seconds(60)
    while verified.count < 2, process.isRunning, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(100))
      verified = Self.verifiedPieces(in: store)
    }
    #expect(process.isRunning, "the run was killed mid-way")
    kill(process.processIdentifier, SIGKILL)
    _ = await process.waitBounded(seconds: 10)
    verified = Self.verifiedPieces(in: store)
    #expect(verified.count >= 2, "pieces were journalled as verified before the kill")
    #expect(verified.count < GetMetalinkTests.size / length)

    let before = (try first.nginx.accessLog().count, try second.nginx.accessLog().count)
    let last = try await OfflineBinary.run(["--store", store.path] + arguments, timeout: 120)
    #expect(last.status == 0, "\(last.stderrText)")
    let file = try #require(FileManager.default.contents(atPath: output))
    #expect(
      try await TestData.sha256Hex(of: file) == GetMetalinkTests.sha256(GetMetalinkTests.body))
    let rerun =
      Array(try first.nginx.accessLog().dropFirst(before.0))
      + Array(try second.nginx.accessLog().dropFirst(before.1))
    #expect(!rerun.isEmpty)
    let asked = Self.piecesAsked(rerun, length: length)
    #expect(asked.isDisjoint(with: verified), "asked again: \(asked.intersection(verified))")
  }

  /// The pieces the store's journal records as verified, over every record.
  static func verifiedPieces(in store: URL) -> Set<Int> {
    guard FileManager.default.fileExists(atPath: store.appending(path: "index.sqlite").path),
      let journal = try? OfflineIndex(directory: store).transfers,
      let records = try? journal.all()
    else { return [] }
    var pieces = Set<Int>()
    for record in records {
      pieces.formUnion((try? journal.verifiedPieces(forDestination: record.destination)) ?? [])
    }
    return pieces
  }
}
