import Foundation
import OfflineStore

/// The files of one content: its folder in the store (or, for a single file whose name no
/// other content's flat file has, the store's shared ``flatFolder``), and the transfer
/// journal's entry for its file.
///
/// The store's two folders are made into `URL`s and paths once, here: Foundation's
/// `appending(path:)` parses the whole path each time, and the queue asked for them several
/// times per launch of each small file (2 % of the runner's samples with a thousand files).
struct ContentFiles {
  let index: OfflineIndex
  let directory: URL
  /// The manager's held `complete` records of the queue's files: a deleted content's is
  /// dropped with its journal entry. Nil where no transfer runs (a rebuild, a backfill).
  var completions: CompletionBatch?

  /// The name of the shared folder of single files, beside `content/`: no content id can
  /// name it there, and people browsing the store find the files under their own names.
  static let flatFolderName = "files"

  /// `files/` in the store: the files of contents with ``ContentRecord/flatFile``.
  let flatFolder: URL
  /// The path of ``flatFolder``.
  let flatFolderPath: String
  /// `content/` in the store, which holds ``folder(id:)`` and the queue's ledger.
  let contentFolder: URL

  init(index: OfflineIndex, directory: URL, completions: CompletionBatch? = nil) {
    self.index = index
    self.directory = directory
    self.completions = completions
    flatFolder = directory.appending(path: Self.flatFolderName, directoryHint: .isDirectory)
    flatFolderPath = flatFolder.path
    contentFolder = directory.appending(path: "content", directoryHint: .isDirectory)
  }

  /// `content/<id>/`: the folder of a stream, or of a file that is not flat.
  func folder(id: String) -> URL {
    contentFolder.appending(path: id, directoryHint: .isDirectory)
  }

  /// The folder that holds the file(s) of `record`: ``flatFolder`` (shared with other
  /// contents) or its own ``folder(id:)``.
  func folder(of record: ContentRecord) -> URL {
    record.flatFile ? flatFolder : folder(id: record.id)
  }

  /// The content's file (for a stream, its playlist or manifest).
  func file(of record: ContentRecord) -> URL {
    folder(of: record).appending(path: record.fileName)
  }

  /// Whether a content's file named `name` may live in the shared folder: never a name
  /// another flat file's part, temporary or hidden file could have.
  static func canBeFlat(_ name: String) -> Bool {
    ContentManifest.isSafeComponent(name) && !name.hasPrefix(".") && !name.hasSuffix(".part")
      && !name.hasSuffix(".tmp") && !name.hasSuffix(".ranges")
  }

  /// The names in the shared folder on disk, lowercased (one listing for a whole `add`: a
  /// look per name was a tenth of adding 10,000 URLs); empty when there is no such folder.
  func flatNamesOnDisk() -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: flatFolderPath)) ?? []
    return Set(names.map { $0.lowercased() })
  }

  /// Whether `name` is free among `onDisk` (``flatNamesOnDisk()``): neither the file nor its
  /// part (nor anything else of those names) is there. Contents added with it free may
  /// still lose it to another one; ``OfflineStore/ContentTable/insert(_:)`` decides that.
  static func isFree(flatName name: String, among onDisk: Set<String>) -> Bool {
    let lowered = name.lowercased()
    return !onDisk.contains(lowered) && !onDisk.contains(lowered + ".part")
  }

  /// The folder that holds the file of `record`, created when missing: the shared folder
  /// (once) or the content's own (``makeFolder(id:)``).
  @discardableResult
  func makeFolder(for record: ContentRecord) -> URL {
    guard record.flatFile else { return makeFolder(id: record.id) }
    let url = flatFolder
    if mkdir(url.path, 0o755) != 0, errno == ENOENT {
      try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    return url
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

  /// The path of ``file(of:)``. A flat file's is joined as a string: its name is one safe
  /// component, which no `URL` needs to parse.
  func destination(of record: ContentRecord) -> String {
    guard record.flatFile, ContentManifest.isSafeComponent(record.fileName) else {
      return file(of: record).path
    }
    return flatFolderPath + "/" + record.fileName
  }

  /// Deletes the content's folder (the file, its `.part`) and its journal entry. Only the
  /// content's own folder is touched; nothing outside it is ever deleted. A flat file goes
  /// with its part and ranges, one name at a time: the shared folder and every other
  /// content's file in it stay.
  func delete(_ record: ContentRecord) throws(OfflineError) {
    guard Self.isValidID(record.id) else { return }  // never a path outside content/
    if record.flatFile {
      try deleteFlatFile(of: record)
      return
    }
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
    completions?.discard(destination: destination(of: record))
    try indexStep {
      try index.transfers.remove(destination: destination(of: record))
      try index.transfers.remove(under: folder(id: record.id).path)
      try index.pieces.remove(content: record.id)
    }
  }

  /// The flat file of `record`, its part and ranges, and their journal entries.
  private func deleteFlatFile(of record: ContentRecord) throws(OfflineError) {
    guard Self.canBeFlat(record.fileName) else { return }  // one name inside files/, no other
    let target = destination(of: record)
    let chunks =
      ((try? index.pieces.pieces(ofContent: record.id)) ?? []).map(\.chunkSHA256.count)
      .max() ?? 0
    let staged = (0..<chunks).map { ChunkFetch.stagedPath(of: target, chunk: $0) }  // a repair's
    for path in [target, target + ".part", target + ".part.ranges"] + staged {
      if unlink(path) != 0, errno != ENOENT {
        throw OfflineError(
          .transfer(
            Transfer.Error(
              .file(TransferFileError(.truncate, errno: errno, path: path)),
              url: URL(string: record.url) ?? directory, destination: target)),
          contentID: record.id)
      }
    }
    completions?.discard(destination: target)
    try indexStep {
      try index.transfers.remove(destination: target)
      try index.pieces.remove(content: record.id)
    }
  }
}
