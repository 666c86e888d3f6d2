import Foundation

/// `live.log` beside `live.json`: the per-segment part of a live recording's state as an
/// append-only journal, so saving after an event costs the new segments, not every segment
/// recorded. Each line is one ``LiveRecordState/Entry`` asked for, with its number, appended
/// and fsynced before `live.json` (which lists the number as asked) is written; reading the
/// state replays the lines over the entries `live.json` holds, the last line for a number
/// winning. When the recording stops, the entries are compacted into `live.json` and the log
/// is removed.
///
/// A kill in the middle of an append leaves a torn last line: it is skipped when read, and
/// the next append starts on a line of its own. A line whose number `live.json` does not
/// name yet (a kill between the append and the write) is harmless: the next run asks for
/// that number again and appends its entry again.
enum LiveEntryLog {
  /// The file's name in the content's folder.
  static let fileName = "live.log"

  /// One line: a number and its entry.
  private struct Line: Codable {
    var sequence: Int
    var entry: LiveRecordState.Entry
  }

  /// The log's mechanics, shared with DASH's (``LiveStateLog``).
  private static let log = LiveStateLog<Line>(fileName: fileName)

  /// The entries the log in `folder` holds, by number; empty when there is none. Lines that
  /// do not decode (a torn last line) are skipped.
  static func entries(in folder: URL) -> [Int: LiveRecordState.Entry] {
    var entries: [Int: LiveRecordState.Entry] = [:]
    for line in log.lines(in: folder) { entries[line.sequence] = line.entry }
    return entries
  }

  /// Appends `entries` to the log in `folder`, one line each in order of number, and
  /// fsyncs it; a log that does not end with a line break (a torn append) gets one first.
  ///
  /// - Throws: ``Transfer/Error`` with a `file` kind naming the log.
  static func append(
    _ entries: [Int: LiveRecordState.Entry], in folder: URL, url: URL
  ) throws(Transfer.Error) {
    let lines = entries.sorted { $0.key < $1.key }.map { Line(sequence: $0.key, entry: $0.value) }
    try log.append(lines, in: folder, url: url)
  }

  /// Removes the log in `folder` (once its entries are compacted into `live.json`).
  static func remove(in folder: URL) {
    log.remove(in: folder)
  }
}
