import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A download with piece hashes that stops and goes on (issue 43, third layer): the pieces
/// the journal records as verified are neither fetched nor checked again, and a written
/// piece it does not record (written in the last second before a kill) is checked when the
/// run goes on, and fetched again alone when its bytes are wrong.
@Suite(.serialized, .timed) struct PieceResumeTests {
  static let size = 24 << 20
  static let pieceLength = 1 << 20
  static let body = TestData.bytes(count: size, seed: 4317)

  static func checks() async throws -> PieceChecks {
    var hashes: [String] = []
    for index in 0..<(size / pieceLength) {
      let piece = body[(index * pieceLength)..<((index + 1) * pieceLength)]
      hashes.append(try await TestData.sha256Hex(of: Data(piece)))
    }
    return PieceChecks(length: Int64(pieceLength), size: Int64(size), hashes: hashes)
  }

  @Test func aWrittenPieceNotJournalledIsCheckedOnResumeAndFetchedAgainAloneWhenBad()
    async throws
  {
    let (origin, root) = try await MirrorTransferTests.mirror(
      ["f.bin": Self.body], .init(limitRate: "1m"))
    defer {
      withExtendedLifetime(root) {}
      origin.stop()
    }
    let sha = try await TestData.sha256Hex(of: Self.body)
    let checks = try await Self.checks()
    let fixture = try TransferFixture()
    let configuration = Transfer.Configuration.quick {
      $0.connections = .fixed(4)
      $0.pieces = checks
      $0 = $0.expecting(sha256: sha)
    }
    let destination = fixture.destination()
    let journal = fixture.index.transfers

    // A first run, stopped once a few pieces are journalled as verified.
    let first = Task {
      try await fixture.transfer(origin.url("/f.bin"), configuration: configuration).run()
    }
    var verified: [Int] = []
    for _ in 0..<600 where verified.count < 3 {
      try await Task.sleep(for: .milliseconds(50))
      verified = try journal.verifiedPieces(forDestination: destination)
    }
    first.cancel()
    _ = await first.result
    verified = try journal.verifiedPieces(forDestination: destination)
    try #require(verified.count >= 3, "pieces were verified before the stop")
    #expect(verified.count < Self.size / Self.pieceLength, "the stop came mid-way")

    // As if the run had been killed before its last checkpoint: the journal forgets one
    // verified piece, and its bytes on disk are wrong.
    let forgotten = verified[1]
    let ranges = try journal.ranges(forDestination: destination)
    try journal.removeVerifiedPieces(forDestination: destination)
    try journal.saveRanges(
      ranges, addingVerifiedPieces: verified.filter { $0 != forgotten },
      forDestination: destination)
    let part = try FileHandle(forUpdating: URL(fileURLWithPath: destination + ".part"))
    try part.seek(toOffset: UInt64(forgotten * Self.pieceLength + 77))
    try part.write(contentsOf: Data([~Self.body[forgotten * Self.pieceLength + 77]]))
    try part.close()
    let before = try origin.accessLog().count

    let log = EventLog()
    let outcome = try await fixture.transfer(origin.url("/f.bin"), configuration: configuration)
      .run(onEvent: log.record)
    #expect(outcome.sha256 == sha)
    #expect(fileData(outcome.destination) == Self.body)
    var refetched: [[Int]] = []
    for case .refetchingPieces(let pieces) in log.events { refetched.append(pieces) }
    #expect(refetched == [[forgotten]])
    // The run that went on asked for the forgotten piece and for no verified one.
    var asked = Set<Int>()
    for entry in try origin.accessLog().dropFirst(before) {
      guard let range = entry.range, range.hasPrefix("bytes=") else { continue }
      let bounds = range.dropFirst(6).split(separator: "-").compactMap { Int($0) }
      guard bounds.count == 2 else { continue }
      asked.formUnion((bounds[0] / Self.pieceLength)...(bounds[1] / Self.pieceLength))
    }
    #expect(asked.contains(forgotten))
    #expect(asked.isDisjoint(with: verified.filter { $0 != forgotten }), "\(asked)")
    #expect(try journal.verifiedPieces(forDestination: destination).isEmpty, "a finished file")
  }
}
