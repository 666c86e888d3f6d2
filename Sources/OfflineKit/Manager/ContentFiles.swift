import Foundation
import OfflineStore

/// The files of one content: its folder in the store, and the transfer journal's entry for
/// its file.
struct ContentFiles {
  let index: OfflineIndex
  let directory: URL

  func folder(id: String) -> URL {
    directory.appending(path: "content").appending(path: id, directoryHint: .isDirectory)
  }

  /// The folder of `id`, created when missing (and `content/` with it). One `mkdir` when
  /// `content/` exists: Foundation's `createDirectory(withIntermediateDirectories:)` looked
  /// at every component of the path first, a twentieth of the runner's CPU with a thousand
  /// small files. Best effort: the transfer reports a folder it cannot write to.
  @discardableResult
  func makeFolder(id: String) -> URL {
    let url = folder(id: id)
    if mkdir(url.path, 0o755) != 0, errno == ENOENT {
      try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    return url
  }

  /// Whether `id` can name a folder inside `content/` and nothing else: letters, digits,
  /// `.`, `_` and `-`, at most 64 of them, not starting with a dot.
  static func isValidID(_ id: String) -> Bool {
    !id.isEmpty && id.utf8.count <= 64 && !id.hasPrefix(".")
      && id.unicodeScalars.allSatisfy {
        ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
          || $0 == "." || $0 == "_" || $0 == "-"
      }
  }

  func destination(of record: ContentRecord) -> String {
    folder(id: record.id).appending(path: record.fileName).path
  }

  /// Deletes the content's folder (the file, its `.part`) and its journal entry. Only the
  /// content's own folder is touched; nothing outside it is ever deleted.
  func delete(_ record: ContentRecord) throws(OfflineError) {
    guard Self.isValidID(record.id) else { return }  // never a path outside content/
    let path = folder(id: record.id).path
    if FileManager.default.fileExists(atPath: path) {
      do {
        try FileManager.default.removeItem(atPath: path)
      } catch {
        throw OfflineError(
          .transfer(
            Transfer.Error(
              .file(TransferFileError(.truncate, errno: EACCES, path: path)),
              url: URL(string: record.url) ?? directory, destination: destination(of: record))),
          contentID: record.id)
      }
    }
    try indexStep {
      try index.transfers.remove(destination: destination(of: record))
      try index.transfers.remove(under: folder(id: record.id).path)
      try index.pieces.remove(content: record.id)
    }
  }
}
