import OfflineStore

/// Where a run of a transfer starts, as a value: the journal's record and the part file's
/// length in, the bytes to keep and the record to go on with out. No I/O; the rows of
/// "Where a run starts" in `docs/Transfer.md`, each a test in `TransferStartTests`.
///
/// - A record for another URL, or none, cannot vouch for the part's bytes: they are dropped
///   (`unknownPartialFile` when there were any).
/// - A record written during this boot trusts the whole part: bytes a killed process wrote
///   are in the page cache.
/// - A record from an earlier boot (or without a boot id) trusts only its durable offset.
struct TransferStart: Equatable {
  /// Bytes of the part to keep; the part is cut to this length when it is longer.
  var keptLength: Int64
  /// Why bytes on disk were dropped, when some were because no record vouches for them.
  var restart: Transfer.RestartReason?
  /// The record to go on with (written when the first response's head arrives).
  var record: TransferRecord

  /// Decides where a run starts.
  ///
  /// - Parameters:
  ///   - record: the journal's record for the destination, if any.
  ///   - partLength: the bytes in the part file now.
  ///   - destination, url: the transfer's.
  ///   - expectedSHA256: the checksum the run expects, recorded with it.
  ///   - bootID: the boot the run happens in.
  init(
    record found: TransferRecord?, partLength: Int64, destination: String, url: String,
    expectedSHA256: String?, bootID: String?
  ) {
    let record = found?.url == url ? found : nil
    var kept = partLength
    if record == nil, partLength > 0 {
      kept = 0
      restart = .unknownPartialFile
    }
    if let record, record.bootID == nil || record.bootID != bootID {
      kept = min(kept, record.durableOffset)
    }
    var current = record ?? TransferRecord(destination: destination, url: url)
    current.phase = .active
    current.fileIdentity = nil
    current.expectedSHA256 = expectedSHA256
    current.bootID = bootID
    current.durableOffset = min(current.durableOffset, kept)
    if record == nil {
      current.etag = nil
      current.lastModified = nil
      current.totalLength = nil
      current.contentEncoding = nil
    }
    // Bytes stored in a coding are only known to be so when some are kept.
    if kept == 0 { current.contentEncoding = nil }
    keptLength = kept
    self.record = current
  }
}
