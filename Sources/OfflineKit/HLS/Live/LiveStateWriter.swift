import Foundation

/// Writes a live recording's state after each event that changed it, so that what one event
/// costs does not grow with the recording: the entries of new segments are appended to
/// `live.log` (``LiveEntryLog``, fsynced) before `live.json` is written with the journal and
/// only the entries it held when the run started; once the recording finishes (or is
/// stopped), ``LiveRecordState/compact(in:)`` folds every entry into `live.json` and removes
/// the log.
///
/// A kill at any moment leaves a state that ``LiveRecordState/read(in:)`` reads whole: the
/// log is appended before `live.json` names the numbers it holds, and `live.json` is
/// replaced atomically.
struct LiveStateWriter {
  let folder: URL
  /// The entries `live.json` holds.
  private var compacted: [Int: LiveRecordState.Entry]
  /// The entries on disk, in `live.json` or in `live.log`.
  private var durable: [Int: LiveRecordState.Entry]

  /// A writer for the recording in `folder`, which holds `earlier` (read with its log
  /// replayed), or nothing when `earlier` is nil: a log left without a `live.json` (a kill
  /// before the first write) is removed then.
  init(folder: URL, earlier: LiveRecordState?) {
    self.folder = folder
    guard let earlier else {
      LiveEntryLog.remove(in: folder)
      compacted = [:]
      durable = [:]
      return
    }
    compacted = LiveRecordState.read(in: folder, replayingLog: false)?.entries ?? [:]
    durable = earlier.entries
  }

  /// Writes `state`: its new entries to the log and the rest to `live.json`, or all of it
  /// to `live.json` once it finished.
  ///
  /// - Throws: ``Transfer/Error`` with a `file` kind when a file cannot be written.
  mutating func write(_ state: LiveRecordState) throws(Transfer.Error) {
    if state.finished != nil {
      try state.compact(in: folder)
      compacted = state.entries
      durable = state.entries
      return
    }
    let fresh = state.entries.filter { durable[$0.key] != $0.value }
    try LiveEntryLog.append(fresh, in: folder, url: state.playlistURL)
    durable.merge(fresh) { _, new in new }
    var head = state
    head.entries = compacted
    try head.write(in: folder)
  }
}
