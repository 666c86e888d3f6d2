import Foundation
import OfflineHTTP
import OfflineStore

/// A large file fetched over several connections: split into ranges written in place at
/// their offsets in one part file, each range journalled, so a crash or a pause resumes every
/// range where it stood; idle connections take half of the slowest range. The final checksum
/// covers the whole file. A server without ranges, or without a validator that keeps the
/// ranges consistent, gets one connection (``Transfer``'s own path).
struct SegmentedTransfer {
  let transfer: Transfer
  /// Connections at the start.
  let connections: Int
  /// The most connections the download grows to while each added one still raises the
  /// speed (``RangeConcurrency``); nil or `connections` and below keeps `connections`.
  var maximumConnections: Int?
  /// Whether a run that goes on from ranges in the journal asks the origin for one byte
  /// first, to learn its duplicates (``ResponseHints``): a download that switched from one
  /// connection (``AdaptiveTransfer``) saw them only in a response it no longer has. An
  /// answer for another file (length, validator) is not used.
  var asksHintsOnResume = false
  /// The chunk digests the ranges complete as they stream.
  let digests = ChunkDigests()
  /// When set, only the readers' connections run (``Transfer/Configuration/playback``): a
  /// suspended file a player reads fetches what the player asks for and nothing else, and
  /// the run ends with `canceled`, its ranges checkpointed, once this long passes with no
  /// reader's connection running and no want.
  var onlyWhatReadersAsk: Duration?
  /// Nearby services that hold the file (``Transfer/askPeers(onEvent:)``): mirrors preferred
  /// to every other source while usable, so the origin serves only what they cannot; a
  /// file of any size is split when there is one.
  var peers: [PeerLookup.Found] = []

  /// Whether the ranges hash the chunks they complete.
  var hashesChunks: Bool {
    transfer.configuration.hashesChunks
      && (transfer.configuration.expectedSHA256 != nil || transfer.configuration.computesSHA256)
  }

  /// The bounds of the connection count.
  var growth: RangeConcurrency.Configuration {
    RangeConcurrency.Configuration(
      start: connections, maximum: max(connections, maximumConnections ?? connections))
  }

  /// Files smaller than this are not split.
  static let minimumSize: Int64 = 8 << 20

  var journal: TransferJournal { transfer.journal }
  var destination: String { transfer.destination }

  /// Marks a response that the ranges cannot go on with (a 200, another range): start over
  /// on one connection.
  struct Inconsistent: Error {}

  func run(onEvent: @escaping @Sendable (Transfer.Event) -> Void) async throws(Transfer.Error)
    -> Transfer.Outcome
  {
    if let outcome = try transfer.completedEarlier(onEvent: onEvent) { return outcome }
    guard let (board, fd, total, validator, hints) = try await prepare(onEvent: onEvent) else {
      return try await transfer.runSingle(onEvent: onEvent)
    }
    defer { close(fd) }
    if let expected = transfer.configuration.expectedLength, expected != total {
      throw transfer.failure(.lengthMismatch(expected: expected, actual: total))
    }
    // Every mirror is checked against the primary's length before any of its bytes is used.
    // The first response's duplicates (RFC 6249) come after the mirrors given.
    var expectedSHA256 = transfer.configuration.expectedSHA256 ?? hints.sha256
    let peers = agreeingPeers(validator: validator, sha256: expectedSHA256, onEvent: onEvent)
    // A peer's whole-file hash is the file's when nothing else tells one: bytes of another
    // version, from the peer or the origin, fail the final check.
    expectedSHA256 = expectedSHA256 ?? peers.lazy.compactMap(\.copy.sha256).first
    let sources = MirrorSources(
      primary: transfer.url,
      mirrors: peers.map(\.mirror) + transfer.configuration.mirrors + hints.mirrors,
      preferred: Set(peers.map(\.mirror)))
    await sources.probeMirrors(total: total, sha256: expectedSHA256, transfer: transfer) {
      url, reason in
      onEvent(.sourceDropped(url, reason: reason))
    }
    // Without piece hashes of its own, the chunk hashes a peer recorded check each piece
    // (from whichever source) as it lands, when that peer's copy is the file expected.
    let ledger = try pieceLedger(
      total: total,
      orChecks: peers.first { $0.copy.sha256 != nil && $0.copy.sha256 == expectedSHA256 }?
        .copy.pieceChecks)
    onEvent(.requesting(offset: board.written))
    do {
      if let ledger {
        // Pieces written before a stop and not journalled as verified are checked first.
        try checkWrittenPieces(
          ledger: ledger, board: board, fd: fd, sources: sources, onEvent: onEvent)
      }
      try await fetchAll(
        board, fd: fd, total: total, validator: validator, sources: sources, ledger: ledger,
        onEvent: onEvent)
      if let ledger {
        try await settlePieces(
          board, fd: fd, total: total, validator: validator, sources: sources, ledger: ledger,
          onEvent: onEvent)
      }
    } catch let error as Transfer.Error {
      throw error
    } catch {
      // The server changed its mind about ranges or the file: one connection, from zero.
      try transfer.indexStep { () throws(StoreError) in try journal.remove(destination: destination)
      }
      // Emptied, not removed: the destination's lock is on this file. The map described
      // the abandoned ranges.
      truncate(transfer.partPath, 0)
      unlink(mapPath)
      onEvent(.restarted(.rangeMismatch))
      return try await transfer.runSingle(onEvent: onEvent)
    }
    var outcome = try finish(
      fd: fd, total: total, expectedSHA256: expectedSHA256, onEvent: onEvent)
    if sources.hasMirrors { outcome.sources = sources.reports }
    transfer.configuration.playback?.didComplete(length: total)
    return outcome
  }

  /// The ranges to fetch: resumed from the journal, or planned after a one-byte probe that
  /// tells the length, the validator and the response's hints (``ResponseHints``: its
  /// duplicates, and its digest, kept in the journal as the file's expected SHA-256 so a
  /// resume checks against it too). Nil when the file should not be split.
  ///
  /// - Throws: ``Transfer/Error``: `checksumMismatch` when the response's digest differs from
  ///   the SHA-256 the download was given, before anything is written.
  private func prepare(onEvent: @Sendable (Transfer.Event) -> Void) async throws(Transfer.Error)
    -> (RangeBoard, Int32, Int64, String, ResponseHints)?
  {
    let record = try transfer.indexStep { () throws(StoreError) in
      try journal.record(forDestination: destination)
    }
    let saved = try transfer.indexStep { () throws(StoreError) in
      try journal.ranges(forDestination: destination)
    }
    if let record, record.url == transfer.url.absoluteString, record.phase == .active,
      let total = record.totalLength, !saved.isEmpty,
      let validator = Validators(etag: record.etag, lastModified: record.lastModified).ifRangeValue,
      FileSteps.regularFileSize(transfer.partPath) == total
    {
      let fd = try openPart(length: nil)
      let map = RangeProgressMap(path: mapPath)
      // Within the boot that wrote them, the mapped positions are the truth (a killed
      // process's writes are in the page cache); after a reboot only the fsynced journal is.
      var ranges = saved
      if record.bootID == BootIdentity.current, let live = map?.read(), !live.isEmpty,
        live.allSatisfy({ $0.start <= $0.next && $0.next <= $0.end && $0.end <= total })
      {
        ranges = live.map { TransferRange(start: $0.start, end: $0.end, next: $0.next) }
      }
      var hints = ResponseHints()
      if asksHintsOnResume, case .ranges(total, let validators, let head)? = try? await probe(),
        validators.ifRangeValue == validator
      {
        hints = ResponseHints(head)
      }
      hints.sha256 = record.expectedSHA256 ?? hints.sha256
      let board = board(ranges, map: map, mirrors: !hints.mirrors.isEmpty)
      return (board, fd, total, validator, hints)
    }
    let answer: ProbeAnswer?
    do {
      answer = try await probe()
    } catch {
      // The origin down or failing: a peer that holds the file serves it whole.
      guard let reason = Self.originProblem(error),
        let plan = try peerPlan(originProblem: reason, originHead: nil, onEvent: onEvent)
      else { throw error }
      return plan
    }
    guard case .ranges(let total, let validators, let head) = answer,
      total >= Self.minimumSize || !peers.isEmpty, let validator = validators.ifRangeValue
    else {
      if case .whole(let head) = answer {
        return try peerPlan(
          originProblem: "it does not serve ranges (HTTP \(head.status) to a range request)",
          originHead: head, onEvent: onEvent)
      }
      return nil
    }
    let hints = ResponseHints(head)
    if let given = transfer.configuration.expectedSHA256, let told = hints.sha256, given != told {
      throw transfer.failure(
        .checksumMismatch(expected: given, actual: "\(told) (the server's Repr-Digest or Digest)"))
    }
    var fresh = TransferRecord(destination: destination, url: transfer.url.absoluteString)
    fresh.totalLength = total
    fresh.etag = validators.etag
    fresh.lastModified = validators.lastModified
    fresh.expectedSHA256 = transfer.configuration.expectedSHA256 ?? hints.sha256
    let (board, fd) = try startFresh(fresh, mirrors: !hints.mirrors.isEmpty)
    return (board, fd, total, validator, hints)
  }

  /// Journals `record` (its length set) as a fresh download with its planned ranges, nothing
  /// written, and opens the part at the full length; returns the board of the ranges and
  /// the part's descriptor. `mirrors`: the response named duplicates (finer splits).
  func startFresh(_ record: TransferRecord, mirrors: Bool) throws(Transfer.Error)
    -> (RangeBoard, Int32)
  {
    let total = record.totalLength ?? 0
    var fresh = record
    fresh.bootID = BootIdentity.current
    let plan = Self.split(total, into: connections)
    let toSave = fresh
    // The record and its ranges (nothing written) first, then the part at its full length:
    // a part as long as the file with no ranges in the journal reads as all written.
    try transfer.indexStep { () throws(StoreError) in
      try journal.save(toSave)
      try journal.saveRanges(plan, forDestination: destination)
      try journal.removeVerifiedPieces(forDestination: destination)
    }
    let fd = try openPart(length: total)
    return (board(plan, map: RangeProgressMap(path: mapPath), mirrors: mirrors), fd)
  }

  /// ``peers`` whose copy can be this file: one whose origin `ETag` is not the origin's
  /// `validator` now, or whose SHA-256 is not `sha256` (when both are known), is told to
  /// `onEvent` as dropped and left out.
  private func agreeingPeers(
    validator: String, sha256: String?, onEvent: @Sendable (Transfer.Event) -> Void
  ) -> [PeerLookup.Found] {
    peers.filter { peer in
      if let etag = peer.copy.etag, validator.hasPrefix("\"") || validator.hasPrefix("W/"),
        etag != validator
      {
        onEvent(
          .sourceDropped(
            peer.mirror,
            reason: "the peer's copy is of another version (ETag \(etag), the origin's"
              + " \(validator))"))
        return false
      }
      if let told = peer.copy.sha256, let sha256, told != sha256 {
        onEvent(
          .sourceDropped(
            peer.mirror,
            reason: SourceChoice.DropReason.digestMismatch(expected: sha256, actual: told)
              .description))
        return false
      }
      return true
    }
  }

  /// The board of `ranges`. With mirrors (given, or `mirrors` from the response), splits are finer (``mirrorMinimumSplit``) and a
  /// slow request keeps little of its range when split, so a slow source never holds the
  /// end of the file.
  func board(_ ranges: [TransferRange], map: RangeProgressMap?, mirrors: Bool = false)
    -> RangeBoard
  {
    guard mirrors || !transfer.configuration.mirrors.isEmpty || !peers.isEmpty else {
      return RangeBoard(ranges, map: map, landed: landed)
    }
    return RangeBoard(
      ranges, map: map, minimumSplit: Self.mirrorMinimumSplit, landed: landed,
      slowKeepsLittle: true)
  }

  /// The smallest split with mirrors: what a slow source keeps of a range when a faster
  /// one takes the rest (512 KiB is 2 s at 256 KiB/s).
  static let mirrorMinimumSplit: Int64 = 512 << 10

  /// What the board tells after each write: the file's readers, when it has any.
  private var landed: (@Sendable () -> Void)? {
    guard let playback = transfer.configuration.playback else { return nil }
    return { playback.didLand() }
  }

  /// The mapped progress file beside the part.
  var mapPath: String { transfer.partPath + ".ranges" }

  /// Where the ranges of a plan begin: multiples of this many bytes (1 MiB), so every
  /// device that plans a file asks a shared cache for the same ranges (see
  /// `docs/caching-proxy.md`); request ends fall on ``RangeBoard/alignment`` boundaries,
  /// multiples of it, where they can.
  static let planAlignment: Int64 = 1 << 20

  /// `total` bytes in `count` ranges of about equal size, each beginning on a
  /// ``planAlignment`` boundary when the ranges are at least that long (the last takes
  /// what is left).
  static func split(_ total: Int64, into count: Int) -> [TransferRange] {
    let even = max(1, total / Int64(max(1, count)))
    let size = even >= planAlignment ? even / planAlignment * planAlignment : even
    var ranges: [TransferRange] = []
    var start: Int64 = 0
    while start < total {
      let end = ranges.count == count - 1 ? total : min(total, start + size)
      ranges.append(TransferRange(start: start, end: end, next: start))
      start = end
    }
    return ranges
  }

  func openPart(length: Int64?) throws(Transfer.Error) -> Int32 {
    let folder = (destination as NSString).deletingLastPathComponent
    try transfer.fileStep { () throws(TransferFileError) in try FileSteps.createFolder(folder) }
    let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (length == nil ? 0 : O_TRUNC)
    let fd = open(transfer.partPath, flags, 0o644)
    guard fd >= 0 else {
      throw transfer.failure(.file(TransferFileError(.open, errno: errno, path: transfer.partPath)))
    }
    if let length, ftruncate(fd, off_t(length)) != 0 {
      let code = errno
      close(fd)
      throw transfer.failure(
        .file(TransferFileError(.truncate, errno: code, path: transfer.partPath)))
    }
    return fd
  }
}
