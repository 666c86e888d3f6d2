import Foundation
import OfflineStore

extension OfflineManager {
  /// Records every file waiting in ``commits`` downloaded, durably and cheaply (group commit):
  /// one `syncfs` makes their bytes and renames durable, their transfers' `complete` records
  /// are written together (``GroupCommit/completions``), what each file must be goes to the
  /// index and their manifests are written (those of flat files as one ledger chunk), a
  /// second `syncfs` makes those durable, then one
  /// transaction records them all `downloaded`. A file is never recorded downloaded before
  /// its bytes and its rename are on disk. Contents suspended, canceled or deleted meanwhile
  /// are left as they are.
  ///
  /// The syncs run off the actor and off the cooperative pool (``GroupCommit``,
  /// ``DeviceWaits``): downloads start and end while they wait; the batch's contents are not
  /// picked again meanwhile. ``stop(suspendingRunning:)`` waits for them.
  func flushFinished() {
    let directory = self.directory
    commits.startBatch { entries, key in
      Task.detached {
        let code = await DeviceWaits.run { Durability.syncFileSystem(of: directory) }
        await self.batchSynced(entries, errno: code, key: key)
      }
    }
  }

  /// Waits until every batch under way is recorded.
  func waitForSyncingBatches() async {
    while !commits.isSettled {
      for task in commits.pending { await task.value }
    }
  }

  /// The first sync of the batch `key` is done (`code` nil) or failed: its manifests, the
  /// second sync, then its one transaction.
  private func batchSynced(_ entries: [GroupCommit.Entry], errno code: Int32?, key: Int) async {
    defer {
      commits.finish(key)
      if machine.running.isEmpty { wakeRunner() }  // perhaps done: runUntilIdle looks at once
    }
    if let code {
      failSync(entries, errno: code)
      return
    }
    // The `complete` records of the batch's files (and of any finished since), in one
    // transaction, before the `pieces` table reads them and the second sync.
    _ = logging("recording the batch's files in the journal", id: nil) {
      try commits.completions.flush()
    }
    // One read for the batch's records and one transaction for what their files must be.
    let records = (try? index.contents.records(ids: entries.map(\.id))) ?? [:]
    // Their journal records in one read too (unreadable: each file reads its own).
    let journal = try? index.transfers.records(
      forDestinations: records.values.map(files.destination(of:)))
    var written: [GroupCommit.Entry] = []
    var pieces: [String: [PieceRecord]] = [:]
    var flat: [ContentManifest] = []  // one ledger chunk for the batch's flat files
    for entry in entries {
      guard let record = records[entry.id], record.state == .downloading else { continue }
      let found = files.pieceRecords(
        of: record, sha256: entry.outcome.sha256, chunks: entry.outcome.chunkSHA256,
        batchJournal: journal)
      pieces[record.id] = found
      if let manifest = files.recordDownloaded(
        record, length: entry.outcome.length, pieces: found, durably: false)
      {
        flat.append(manifest)
      }
      written.append(entry)
    }
    files.ledger.append(flat, durably: false)
    // Unrecorded, a file's pieces are missing from `verify` and the quick check, not from
    // the file: the download itself is still recorded below.
    _ = logging("recording what the batch's files must be", id: nil) {
      try index.pieces.replace(byContent: pieces)
    }
    let directory = self.directory
    if let code = await DeviceWaits.run({ Durability.syncFileSystem(of: directory) }) {
      failSync(written, errno: code)
      return
    }
    CrashPoint.reach(.finishBeforeDownloaded)
    let lengths = Dictionary(
      written.map { ($0.id, $0.outcome.length) }, uniquingKeysWith: { _, last in last })
    let updated =
      (try? index.contents.update(ids: written.map(\.id)) { record in
        guard let length = lengths[record.id] else { return false }
        return EndDecision.recordBatchFinished(&record, length: length)
      }) ?? []
    // Not written (the index was busy): they stay downloading, and their next run finds
    // each file complete in the journal and comes back here.
    for record in updated {
      machine.didSee(record.offlineState, of: record.id)
      announce(record, pieces: [])  // just verified: nothing to check
      announceFinished(record)
    }
  }

  /// The sync of a batch failed: none of its files is recorded downloaded; each content is
  /// suspended with the error (its file stays, to be checked by its next run).
  private func failSync(_ entries: [GroupCommit.Entry], errno code: Int32) {
    for entry in entries {
      guard let record = try? index.contents.record(id: entry.id) else { continue }
      let failure = Transfer.Error(
        .file(TransferFileError(.sync, errno: code, path: entry.outcome.destination)),
        url: URL(string: record.url) ?? directory, destination: entry.outcome.destination)
      didFail(entry.id, error: failure, progressed: false, host: "")
    }
  }
}
