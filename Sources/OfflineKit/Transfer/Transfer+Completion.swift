import Foundation
import OfflineHTTP
import OfflineStore

extension Transfer {
  /// The outcome when an earlier run already finished this download and the file is still
  /// what it finished; also finishes a run that crashed between renaming the file and
  /// recording it. Throws when something OfflineKit did not download is in the way.
  func completedEarlier(onEvent: @Sendable (Event) -> Void) throws(Transfer.Error) -> Outcome? {
    try checkEarlierRun(onEvent: onEvent).outcome
  }

  /// ``completedEarlier(onEvent:)``, with the journal record it read. When there is no
  /// outcome it wrote nothing, so the first attempt can start from that record instead of
  /// reading it again (one index query less for each file and each piece of a stream).
  func checkEarlierRun(onEvent: @Sendable (Event) -> Void) throws(Transfer.Error)
    -> (outcome: Outcome?, record: TransferRecord?)
  {
    var found = journalHasNoRecord ? nil : try recordOfPart()
    if carriesOverJournal, let carried = Self.carriedOver(found, to: url, journal: journal) {
      found = carried  // not saved: the URLs differ, and the transfer starts afresh
    }
    return (try completedEarlier(found, onEvent: onEvent), found)
  }

  /// The journal's record of ``destination``, nil when there is none or when it describes a
  /// piece in a pack: such a piece is its runner's to keep (``PiecePacks``), and one the
  /// runner did not keep starts afresh, with nothing of it in a part.
  func recordOfPart() throws(Transfer.Error) -> TransferRecord? {
    let record = try indexStep { () throws(StoreError) in
      try journal.record(forDestination: destination)
    }
    return record?.pack == nil ? record : nil
  }

  private func completedEarlier(_ record: TransferRecord?, onEvent: @Sendable (Event) -> Void)
    throws(Transfer.Error) -> Outcome?
  {
    guard var record, record.url == url.absoluteString else {
      // Ordered so a fresh piece of a stream (it replaces what is there) stats nothing here.
      if record == nil, !configuration.replacesExistingFile, FileSteps.exists(destination) {
        throw failure(.destinationExists)
      }
      return nil
    }
    let identity = FileIdentity(regularFileAt: destination)
    let partLength = FileSteps.regularFileSize(partPath)
    // A piece of a stream records no `finishing` intent (it is not synced on its own). The
    // record of its response was written while its part existed, so within the same boot a
    // part that is gone and a file of the recorded length in its place mean the rename was
    // done and the process died before recording `complete`.
    let renamedPiece =
      !configuration.syncsEachFile && record.phase == .active
      && record.bootID == BootIdentity.current
    let finishedRename =
      (record.phase == .finishing || renamedPiece) && (partLength ?? 0) == 0
      && identity != nil && identity?.size == record.totalLength
    guard record.phase == .complete || finishedRename, let identity,
      record.totalLength == nil || record.totalLength == identity.size,
      configuration.syncsEachFile || record.bootID == BootIdentity.current
    else {
      if record.phase == .complete, FileSteps.exists(destination) {
        onEvent(.restarted(.completedFileChanged))
      }
      return nil
    }
    guard let check = try checkCompleted(identity, &record, finishedRename: finishedRename) else {
      onEvent(.restarted(.completedFileChanged))
      return nil
    }
    record.phase = .complete
    record.totalLength = identity.size
    try saveComplete(record)
    return Outcome(
      destination: destination, length: identity.size, sha256: record.sha256,
      wasAlreadyComplete: true, bytesReceived: 0, check: check)
  }

  /// How the complete file at the destination is known to hold the downloaded bytes, nil
  /// when it does not (any more): an unchanged identity needs no reading; a changed or
  /// unknown one is hashed when a checksum is known; a changed one without a checksum is not
  /// trusted. Records the identity when the bytes were checked now or just renamed.
  private func checkCompleted(
    _ identity: FileIdentity, _ record: inout TransferRecord, finishedRename: Bool
  ) throws(Transfer.Error) -> Outcome.Check? {
    let expected = configuration.expectedSHA256 ?? record.sha256
    if record.fileIdentity == identity,
      configuration.expectedSHA256 == nil || configuration.expectedSHA256 == record.sha256
    {
      return .unchangedSinceDownload
    }
    guard let expected else {
      // Without a checksum only an unknown identity (a record from an earlier version, or
      // a rename just finished) is given the benefit of its length.
      guard record.fileIdentity == nil else { return nil }
      if finishedRename { record.fileIdentity = identity }
      return .length
    }
    let actual = try fileStep { () throws(TransferFileError) in
      try FileSteps.sha256(ofFile: destination)
    }
    guard actual == expected else { return nil }
    record.sha256 = actual
    record.fileIdentity = identity
    return .sha256
  }

  /// Refuses a destination that is neither missing, a regular file nor a symbolic link (a
  /// link is replaced, never written through). `--force` never replaces `/dev/null`.
  func checkDestinationKind() throws(Transfer.Error) {
    var info = stat()
    guard lstat(destination, &info) == 0 else { return }
    let kind: String
    switch info.st_mode & S_IFMT {
    case S_IFREG, S_IFLNK: return
    case S_IFDIR: kind = "a folder"
    case S_IFCHR, S_IFBLK: kind = "a device"
    case S_IFIFO: kind = "a FIFO"
    case S_IFSOCK: kind = "a socket"
    default: kind = "a special file"
    }
    throw failure(.destinationNotAFile(kind))
  }

  /// Records the identity of the file just renamed into place, with `record`. `part` is the
  /// descriptor the file was written through, when it is still open: the renamed file is
  /// the same inode, read without looking its name up in its folder again.
  func recordComplete(_ record: inout TransferRecord, part: Int32? = nil) throws(Transfer.Error) {
    record.phase = .complete
    record.fileIdentity =
      part.flatMap { FileIdentity(openFile: $0) } ?? FileIdentity(regularFileAt: destination)
    try saveComplete(record)
  }

  /// Writes a `complete` record: into ``completions`` for a stream piece whose response
  /// record is already in the journal, at once otherwise.
  private func saveComplete(_ record: TransferRecord) throws(Transfer.Error) {
    try indexStep { () throws(StoreError) in
      if let completions, !configuration.syncsEachFile {
        try completions.add(record)
      } else {
        try journal.save(record)
      }
    }
  }

  /// Writes the record of the response of a transfer that is not synced on its own, with
  /// its final `length` (a response without `Content-Length`, chunked, tells it only now:
  /// without it a renamed piece would not be known as ours), unless the journal holds it
  /// already. Through ``responses`` when there is a batch, in one commit of its own otherwise.
  private func writeResponseRecord(_ sink: TransferSink, length: Int64)
    async throws(Transfer.Error)
  {
    var response = sink.record
    guard sink.recordPending || response.totalLength != length else { return }
    response.totalLength = length
    try await writeBeforeGoingOn(response, sink: sink)
  }

  /// Writes `record`, which must be in the journal before the transfer goes on (a rename,
  /// or reporting a piece in a pack finished): through ``responses`` when there is a batch,
  /// in one commit of its own otherwise. The sink takes it as its record.
  func writeBeforeGoingOn(_ record: TransferRecord, sink: TransferSink)
    async throws(Transfer.Error)
  {
    if let responses {
      do { try await responses.write(record) } catch { throw failure(.index(error)) }
    } else {
      try indexStep { () throws(StoreError) in try journal.save(record) }
    }
    sink.recordWritten(record)
  }

  /// Checks the whole part (length, then checksum), records the intent to finish, renames the
  /// part into place and records the file as complete. A checksum mismatch drops the part
  /// and its journal, so the next run starts clean.
  func finish(_ sink: TransferSink, onEvent: @Sendable (Event) -> Void)
    async throws(Transfer.Error) -> Outcome
  {
    onEvent(.verifying)
    if let problem = sink.checkpointer.drain() {
      throw failure(
        .file(problem as? TransferFileError ?? TransferFileError(.sync, errno: EIO)))
    }
    if let pack, !configuration.syncsEachFile, !sink.part.isOpen, sink.part.length > 0 {
      return try await finish(sink, into: pack)
    }
    // The last write waits for the device (it goes past the page cache), and a sync more so:
    // on a thread of their own, not one the other transfers' tasks need. The write hashes
    // what it wrote on the same thread.
    let syncs = configuration.syncsEachFile
    try await deviceStep { () throws(TransferFileError) in
      syncs ? try sink.part.synchronize() : try sink.part.flush()
      try sink.part.create()  // a body of no bytes was never written: its file is made now
    }
    let length = sink.part.flushedLength
    try checkLength(sink, length)
    // Every byte of the part, hashed behind the writer while it streamed (and the rest now).
    let (streamed, chunks) = try fileStep { () throws(TransferFileError) in
      try sink.finishHashes(length: length)
    }
    // The record the sink wrote, or noted without writing when the whole body stayed in the
    // buffer until now: the next write below records it with its final state.
    var record = sink.record
    // Without a SHA-256 given, the response's digest (RFC 9530 `Repr-Digest`, or `Digest`)
    // is the one the file must have; the file is hashed for it when it was not yet. Not for
    // a slice: the digest is the whole resource's.
    var expectedSHA256 = configuration.expectedSHA256
    var sha = streamed
    if expectedSHA256 == nil, configuration.slice == nil,
      let told = sink.lastHead.flatMap(ResponseHints.sha256(of:))
    {
      expectedSHA256 = told
      if sha == nil, sink.part.isOpen {
        let whole = SHA256()
        try fileStep { () throws(TransferFileError) in
          try whole.feed(fromFile: sink.part.descriptor, length: length)
        }
        sha = whole.finalizeHex()
      }
    }
    if let expected = expectedSHA256, let sha, sha != expected {
      try fileStep { () throws(TransferFileError) in try sink.emptyPart() }
      try indexStep { () throws(StoreError) in try journal.remove(destination: destination) }
      throw failure(.checksumMismatch(expected: expected, actual: sha))
    }
    record.pack = nil
    record.phase = .finishing
    record.totalLength = length
    record.durableOffset = length
    record.sha256 = sha
    let finishing = record
    if configuration.syncsEachFile {
      // The intent to rename, for a crash between the rename and `complete`.
      try indexStep { () throws(StoreError) in try journal.save(finishing) }
      sink.recordWritten(finishing)
    } else {
      // A piece of a stream records no intent; its response's record, written before the
      // rename, is what tells `completedEarlier` that a rename was done before a crash (its
      // `complete` record may wait in a `CompletionBatch`).
      try await writeResponseRecord(sink, length: length)
    }
    CrashPoint.reach(.transferAfterFinishing)
    if !destinationIsInLockedFolder { try checkDestinationKind() }
    try fileStep { () throws(TransferFileError) in
      try FileSteps.renameIntoPlace(partPath, to: destination, durably: configuration.syncsEachFile)
    }
    CrashPoint.reach(.transferAfterRename)
    try recordComplete(&record, part: sink.part.descriptor)
    var outcome = Outcome(
      destination: destination, length: length, sha256: sha, wasAlreadyComplete: false,
      bytesReceived: sink.bytesReceived, check: sha == nil ? .length : .sha256)
    outcome.chunkSHA256 = chunks
    return outcome
  }

  /// Throws unless `length`, the bytes the part holds, is the length the response said:
  /// more drops them (the next attempt starts over); fewer keeps them, with their record,
  /// for the next attempt to go on from.
  func checkLength(_ sink: TransferSink, _ length: Int64) throws(Transfer.Error) {
    guard let total = sink.machine.totalLength, total != length else { return }
    if length > total {
      try fileStep { () throws(TransferFileError) in try sink.emptyPart() }
      throw failure(.lengthMismatch(expected: total, actual: length))
    }
    // Keep what arrived for the next attempt: its record goes with it.
    try indexStep { () throws(StoreError) in try sink.writePendingRecord() }
    throw failure(
      .network(HTTPError(.connectionLost, url: url, detail: "\(total - length) bytes missing")))
  }
}
