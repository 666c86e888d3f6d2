import Foundation

/// The state file of a live recording (`live.json` of HLS, `live-dash.json` of DASH): JSON
/// with sorted keys, replaced atomically, readable by the user alone (its URLs may be
/// signed).
enum LiveStateFile {
  /// The state in `folder`'s file `name`; nil when there is none or it cannot be read.
  static func read<State: Decodable>(_ type: State.Type, named name: String, in folder: URL)
    -> State?
  {
    guard let data = contents(named: name, in: folder) else { return nil }
    return try? JSONDecoder().decode(State.self, from: data)
  }

  /// The bytes of `folder`'s file `name`; nil when there is none.
  static func contents(named name: String, in folder: URL) -> Data? {
    FileManager.default.contents(atPath: folder.appending(path: name).path)
  }

  /// The first `count` bytes of `folder`'s file `name` (fewer when it is shorter); nil when
  /// there is none.
  static func head(named name: String, in folder: URL, count: Int) -> Data? {
    guard let handle = FileHandle(forReadingAtPath: folder.appending(path: name).path) else {
      return nil
    }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: count)) ?? Data()
  }

  /// Writes `state` into `folder`'s file `name`; `url` (the recorded playlist or manifest)
  /// names the recording in an error.
  static func write(_ state: some Encodable, named name: String, in folder: URL, url: URL)
    throws(Transfer.Error)
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(state) else {
      throw Transfer.Error(
        .invalidMedia("cannot encode the live recording's state"), url: url,
        destination: folder.path)
    }
    try AtomicFile.write(
      data, to: folder.appending(path: name), mode: ReadableFileMode.owner, url: url)
  }
}

/// An append-only log beside a live recording's state file (`live.log` of HLS,
/// `live-dash.log` of DASH): one JSON `Line` per line, so saving after an event costs the
/// lines of what changed, not the whole recording. Each append is fsynced before the state
/// file that counts on it is written.
///
/// A kill in the middle of an append leaves a torn last line: it is skipped when read, and
/// the next append starts on a line of its own.
struct LiveStateLog<Line: Codable>: Sendable {
  /// The file's name in the content's folder.
  let fileName: String

  /// The lines of the log in `folder`, in the order appended; empty when there is none.
  /// Lines that do not decode (a torn last line) are skipped.
  func lines(in folder: URL) -> [Line] {
    guard let data = FileManager.default.contents(atPath: path(in: folder)) else { return [] }
    let decoder = JSONDecoder()
    return data.split(separator: UInt8(ascii: "\n")).compactMap {
      try? decoder.decode(Line.self, from: Data($0))
    }
  }

  /// Appends `lines` to the log in `folder` and fsyncs it; a log that does not end with a
  /// line break (a torn append) gets one first. Returns the bytes appended.
  ///
  /// - Throws: ``Transfer/Error`` with a `file` kind naming the log.
  @discardableResult
  func append(_ lines: [Line], in folder: URL, url: URL) throws(Transfer.Error) -> Int {
    guard !lines.isEmpty else { return 0 }
    let path = path(in: folder)
    let failure = { (operation: TransferFileError.Operation, code: Int32) in
      Transfer.Error(
        .file(TransferFileError(operation, errno: code, path: path)), url: url,
        destination: path)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var text = Data()
    if let size = FileSteps.regularFileSize(path), size > 0, !Self.endsWithLineBreak(path) {
      text.append(UInt8(ascii: "\n"))
    }
    for line in lines {
      guard let encoded = try? encoder.encode(line) else {
        throw Transfer.Error(
          .invalidMedia("cannot encode a line of the live recording's log"), url: url,
          destination: path)
      }
      text.append(encoded)
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
    return text.count
  }

  /// The log's size in `folder` in bytes; 0 when there is none.
  func size(in folder: URL) -> Int {
    Int(FileSteps.regularFileSize(path(in: folder)) ?? 0)
  }

  /// Removes the log in `folder` (once its lines are folded into the state file).
  func remove(in folder: URL) {
    FileSteps.unlink(path(in: folder))
  }

  private func path(in folder: URL) -> String {
    folder.appending(path: fileName).path
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
