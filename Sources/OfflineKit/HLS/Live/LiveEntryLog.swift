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

  /// The entries the log in `folder` holds, by number; empty when there is none. Lines that
  /// do not decode (a torn last line) are skipped.
  static func entries(in folder: URL) -> [Int: LiveRecordState.Entry] {
    guard let data = FileManager.default.contents(atPath: file(in: folder).path) else {
      return [:]
    }
    let decoder = JSONDecoder()
    var entries: [Int: LiveRecordState.Entry] = [:]
    for line in data.split(separator: UInt8(ascii: "\n")) {
      guard let decoded = try? decoder.decode(Line.self, from: Data(line)) else { continue }
      entries[decoded.sequence] = decoded.entry
    }
    return entries
  }

  /// Appends `entries` to the log in `folder`, one line each in order of number, and
  /// fsyncs it; a log that does not end with a line break (a torn append) gets one first.
  ///
  /// - Throws: ``Transfer/Error`` with a `file` kind naming the log.
  static func append(
    _ entries: [Int: LiveRecordState.Entry], in folder: URL, url: URL
  ) throws(Transfer.Error) {
    guard !entries.isEmpty else { return }
    let path = file(in: folder).path
    let failure = { (operation: TransferFileError.Operation, code: Int32) in
      Transfer.Error(
        .file(TransferFileError(operation, errno: code, path: path)), url: url,
        destination: path)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var text = Data()
    if let size = FileSteps.regularFileSize(path), size > 0, !endsWithLineBreak(path) {
      text.append(UInt8(ascii: "\n"))
    }
    for (sequence, entry) in entries.sorted(by: { $0.key < $1.key }) {
      guard let line = try? encoder.encode(Line(sequence: sequence, entry: entry)) else {
        throw Transfer.Error(
          .invalidMedia("cannot encode the live recording's entry \(sequence)"), url: url,
          destination: path)
      }
      text.append(line)
      text.append(UInt8(ascii: "\n"))
    }
    let fd = FileSteps.open(
      path, flags: O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
      mode: ReadableFileMode.owner)
    guard fd >= 0 else { throw failure(.open, errno) }
    defer { close(fd) }
    let written = text.withUnsafeBytes { SystemIO.write(fd, $0.baseAddress, $0.count) }
    guard written == text.count else { throw failure(.write, written < 0 ? errno : ENOSPC) }
    guard Durability.sync(fd) == 0 else { throw failure(.sync, errno) }
  }

  /// Removes the log in `folder` (once its entries are compacted into `live.json`).
  static func remove(in folder: URL) {
    FileSteps.unlink(file(in: folder).path)
  }

  private static func file(in folder: URL) -> URL {
    folder.appending(path: fileName)
  }

  /// Whether the file at `path` ends with a line break.
  private static func endsWithLineBreak(_ path: String) -> Bool {
    let fd = FileSteps.open(path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return true }
    defer { close(fd) }
    var byte: UInt8 = 0
    guard lseek(fd, -1, SEEK_END) >= 0, read(fd, &byte, 1) == 1 else { return true }
    return byte == UInt8(ascii: "\n")
  }
}
