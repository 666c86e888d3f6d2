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
