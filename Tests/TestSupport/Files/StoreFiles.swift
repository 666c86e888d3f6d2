import Foundation

/// Where a store keeps the file of a content, for tests that look at the disk: in the
/// content's own folder (`content/<id>/`) when it has one (a stream, a name another content's
/// file had, a store from before the shared folder), else in the store's shared `files/`.
public enum StoreFiles {
  /// The file `name` of content `id` in `store`.
  public static func file(_ name: String, of id: String, in store: URL) -> URL {
    let folder = store.appending(path: "content").appending(path: id)
    return FileManager.default.fileExists(atPath: folder.path)
      ? folder.appending(path: name) : store.appending(path: "files").appending(path: name)
  }
}
