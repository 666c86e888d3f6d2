import Foundation
import OfflineStore

extension Transfer {
  /// The bytes at the start of `part` one connection can go on from.
  ///
  /// A part written by ranges (a segmented run, or an automatic one that switched to
  /// several connections) is as long as the file, with holes where ranges had not arrived
  /// yet; taking its length for bytes written would hand those holes back as the file. When
  /// the journal holds ranges for the destination, only the written prefix of the first
  /// ranges counts, and the ranges are dropped: this run writes the part from that prefix
  /// on, one connection, and the map beside the part would describe other bytes. Looked up
  /// only for a part of a recorded transfer at least ``SegmentedTransfer/minimumSize`` long
  /// (no smaller file is ever split), so the pieces of a stream pay nothing for it.
  func lengthOneConnectionGoesOnFrom(_ part: PartFile, record: TransferRecord?)
    throws(Transfer.Error) -> Int64
  {
    let length = part.flushedLength
    guard record != nil, length >= SegmentedTransfer.minimumSize else { return length }
    let ranges = try indexStep { () throws(StoreError) in
      try journal.ranges(forDestination: destination)
    }
    guard !ranges.isEmpty else { return length }
    // Cut first: a kill between the two steps must never leave a full-length part whose
    // ranges are gone, which the next run would trust up to its length.
    let prefix = min(length, Self.writtenPrefix(of: ranges))
    try fileStep { () throws(TransferFileError) in try part.truncate(to: prefix) }
    try indexStep { () throws(StoreError) in
      try journal.saveRanges([], forDestination: destination)
    }
    unlink(partPath + ".ranges")
    return prefix
  }

  /// The length of the bytes written from offset 0 without a gap: ranges in file order,
  /// each written from its start up to its `next`.
  static func writtenPrefix(of ranges: [TransferRange]) -> Int64 {
    var prefix: Int64 = 0
    for range in ranges.sorted(by: { $0.start < $1.start }) {
      guard range.start <= prefix else { break }
      prefix = max(prefix, range.next)
      guard range.next >= range.end else { break }
    }
    return prefix
  }
}
