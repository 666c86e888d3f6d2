import Foundation

/// The folders inside a content's folder (a stream's `keys/`, `video/`, DASH's `p0/`), made
/// and opened one name at a time from the content's folder with `openat` and `O_NOFOLLOW |
/// O_DIRECTORY`: a symbolic link planted at one of them is refused, never followed, so
/// nothing is written or deleted through it outside the content's folder.
///
/// The content's folder itself is opened as it is named: `get -o DIR` naming a link to a
/// folder writes into the folder the user chose. The names inside it are OfflineKit's.
enum ContentFolders {
  /// Makes (mode 0755) or opens every folder on the way to each of `files` (paths inside
  /// `root`, such as `video/s00001.ts`), once each, before anything is written there.
  ///
  /// - Throws: ``TransferFileError`` (`createDirectory`) naming the folder: `ELOOP` for a
  ///   symbolic link where a folder belongs, `ENOTDIR` for anything else that is not a
  ///   folder, or the `errno` of a folder that cannot be made or opened. Nothing is changed.
  static func make(forFiles files: some Sequence<String>, in root: String)
    throws(TransferFileError)
  {
    let files = Array(files)
    guard files.contains(where: { folder(of: $0) != nil }) else { return }
    _ = try pin(forFiles: files, in: root)
  }

  /// Makes or opens, as ``make(forFiles:in:)`` does, `root` and every folder on the way to
  /// each of `files`, and keeps them open and pinned (``PinnedFolders``) while the returned
  /// ``Pins`` live: every file of the run in them is then opened, renamed and removed
  /// relative to its folder's descriptor, so a link swapped in for a folder during the run
  /// is never followed. Hold the pins for the whole run; ``Pins/checkInPlace()`` at its end.
  static func pin(forFiles files: some Sequence<String>, in root: String)
    throws(TransferFileError) -> Pins
  {
    var root = root
    while root.count > 1, root.hasSuffix("/") { root.removeLast() }
    let rootDescriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard rootDescriptor >= 0 else {
      throw TransferFileError(.createDirectory, errno: errno, path: root)
    }
    let pins = Pins(root: root, folder: PinnedFolder(descriptor: rootDescriptor))
    var opened: [String: PinnedFolder] = ["": pins.rootFolder]
    for folder in Set(files.compactMap(folder(of:))).sorted() {
      var parent = pins.rootFolder
      var relative = ""
      for name in folder.split(separator: "/").map(String.init) {
        relative += relative.isEmpty ? name : "/" + name
        if let known = opened[relative] {
          parent = known
          continue
        }
        let path = root + "/" + relative
        let child = pins.add(
          PinnedFolder(descriptor: try openFolder(name, in: parent.descriptor, path: path)),
          at: path, named: name, in: parent)
        opened[relative] = child
        parent = child
      }
    }
    return pins
  }

  /// The first folder on the way to `file` (a path inside `root`, the folder of a content of
  /// the store) that is not a folder (a symbolic link, a file), as a path inside `root`, or
  /// `.` for `root` itself (a store's content folder is never a link: a rebuild refuses one
  /// too); nil when each one is a folder or missing. `known` keeps the answer for each
  /// folder looked at, for many files.
  static func misplacedFolder(
    on file: String, in root: String, known: inout [String: Bool]
  ) -> String? {
    var prefix = "."
    let names = folder(of: file)?.split(separator: "/").map(String.init) ?? []
    for name in [""] + names {
      if !name.isEmpty { prefix = prefix == "." ? name : prefix + "/" + name }
      let isFolder: Bool
      if let answer = known[prefix] {
        isFolder = answer
      } else {
        var info = stat()
        let path = prefix == "." ? root : root + "/" + prefix
        isFolder = lstat(path, &info) != 0 || (info.st_mode & S_IFMT) == S_IFDIR
        known[prefix] = isFolder
      }
      if !isFolder { return prefix }
    }
    return nil
  }

  /// The folder part of `file`, nil for a file at the top.
  private static func folder(of file: String) -> String? {
    guard let slash = file.lastIndex(of: "/") else { return nil }
    let folder = String(file[..<slash])
    return folder.isEmpty ? nil : folder
  }

  /// Opens folder `name` inside the open folder `parent` without following a link, making it
  /// when missing.
  private static func openFolder(_ name: String, in parent: Int32, path: String)
    throws(TransferFileError) -> Int32
  {
    let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    var fd = openat(parent, name, flags)
    if fd < 0, errno == ENOENT {
      guard mkdirat(parent, name, 0o755) == 0 || errno == EEXIST else {
        throw TransferFileError(.createDirectory, errno: errno, path: path)
      }
      fd = openat(parent, name, flags)
    }
    guard fd >= 0 else {
      var code = errno
      var info = stat()
      if code == ENOTDIR, fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
        (info.st_mode & S_IFMT) == S_IFLNK
      {
        code = ELOOP
      }
      throw TransferFileError(.createDirectory, errno: code, path: path)
    }
    return fd
  }
}
