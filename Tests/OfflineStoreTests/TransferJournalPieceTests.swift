import Foundation
import TestTiming
import Testing

@testable import OfflineStore

/// The pieces of a segmented download checked against their hashes (issue 43, third layer):
/// recorded with the ranges in one transaction, kept across a reopen of the index, and gone
/// with the record or a new plan.
@Suite(.timed) struct TransferJournalPieceTests {
  let directory: TemporaryDirectory
  let journal: TransferJournal

  init() throws {
    directory = try TemporaryDirectory()
    journal = try OfflineIndex(directory: directory.url).transfers
  }

  let destination = "/data/disk.img"
  let ranges = [
    TransferRange(start: 0, end: 10, next: 10), TransferRange(start: 10, end: 20, next: 12),
  ]

  @Test func verifiedPiecesAddUpAndOutliveAReopenOfTheIndex() throws {
    try journal.save(TransferRecord(destination: destination, url: "https://example.test/d"))
    try journal.saveRanges(ranges, addingVerifiedPieces: [3, 1], forDestination: destination)
    try journal.saveRanges(ranges, addingVerifiedPieces: [1, 7], forDestination: destination)
    let reopened = try OfflineIndex(directory: directory.url).transfers
    #expect(try reopened.verifiedPieces(forDestination: destination) == [1, 3, 7])
    #expect(try reopened.ranges(forDestination: destination) == ranges)
    #expect(try reopened.verifiedPieces(forDestination: "/data/other").isEmpty)
  }

  @Test func removingTheRecordOrTheFolderForgetsItsPieces() throws {
    try journal.save(TransferRecord(destination: destination, url: "https://example.test/d"))
    try journal.saveRanges(ranges, addingVerifiedPieces: [0], forDestination: destination)
    try journal.remove(destination: destination)
    #expect(try journal.verifiedPieces(forDestination: destination).isEmpty)
    try journal.saveRanges(ranges, addingVerifiedPieces: [0], forDestination: destination)
    try journal.remove(under: "/data")
    #expect(try journal.verifiedPieces(forDestination: destination).isEmpty)
    try journal.saveRanges(ranges, addingVerifiedPieces: [2], forDestination: destination)
    try journal.removeVerifiedPieces(forDestination: destination)
    #expect(try journal.verifiedPieces(forDestination: destination).isEmpty)
    #expect(try journal.ranges(forDestination: destination) == ranges)
  }
}
