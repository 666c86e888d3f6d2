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

  /// Turns a part written by one connection into ranges: what is written is a finished
  /// range, the rest is split into `connections`. False when the journal cannot back a split
  /// (no validator, no length), for a file smaller than ``SegmentedTransfer/minimumSize``
  /// (one connection takes such a part's length for its written bytes), or when there is
  /// nothing to turn (no part, or one as long as the file: ranges already, or all written).
  func turnPartIntoRanges(splittingTheRestInto connections: Int) throws(Transfer.Error) -> Bool {
    let journal = self.journal
    guard
      let record = try indexStep({ () throws(StoreError) in
        try journal.record(forDestination: destination)
      }), let total = record.totalLength, total >= SegmentedTransfer.minimumSize,
      Validators(etag: record.etag, lastModified: record.lastModified).ifRangeValue != nil,
      let written = FileSteps.regularFileSize(partPath), written < total
    else { return false }
    unlink(partPath + ".ranges")  // any old map would describe other ranges
    let rest = SegmentedTransfer.split(total - written, into: connections).map {
      TransferRange(start: $0.start + written, end: $0.end + written, next: $0.next + written)
    }
    let ranges = (written > 0 ? [TransferRange(start: 0, end: written, next: written)] : []) + rest
    // The ranges first, then the part at its full length: a reader of the file (or a run
    // after a crash) that finds a part as long as the file and no ranges takes every byte
    // for written, and the bytes past `written` are a hole until the ranges fill them.
    try indexStep { () throws(StoreError) in
      try journal.saveRanges(ranges, forDestination: destination)
    }
    guard truncate(partPath, off_t(total)) == 0 else {
      _ = try? journal.saveRanges([], forDestination: destination)  // still one part
      return false
    }
    return true
  }

  /// The run of a suspended file that a player reads: only the readers' connections fetch,
  /// and it ends with `canceled` once nobody asked for ``Configuration/onlyWhatReadersAsk``
  /// (``SegmentedTransfer/onlyWhatReadersAsk``).
  ///
  /// A part one connection wrote becomes ranges first (what is written a finished range,
  /// the rest one range the readers' connections split where they ask). A part that cannot
  /// (a file under ``SegmentedTransfer/minimumSize``, no validator for `If-Range`) goes on
  /// over its one connection, as does an origin without ranges: such a file is fetched
  /// whole for the player, never started over.
  func runForReaders(
    idle: Duration, onEvent: @escaping @Sendable (Event) -> Void, lock: DestinationLock
  ) async throws(Transfer.Error) -> Outcome {
    let hasRanges = try !indexStep { () throws(StoreError) in
      try journal.ranges(forDestination: destination)
    }.isEmpty
    let written = FileSteps.regularFileSize(partPath) ?? 0
    if !hasRanges, written > 0, try !turnPartIntoRanges(splittingTheRestInto: 1) {
      return try await runSingle(onEvent: onEvent, lock: lock)
    }
    var segmented = SegmentedTransfer(transfer: self, connections: 1)
    segmented.onlyWhatReadersAsk = idle
    return try await segmented.run(onEvent: onEvent)
  }
}
