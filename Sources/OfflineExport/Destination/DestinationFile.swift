import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file an export writes: first under a temporary name beside the destination, then
/// flushed to disk and renamed into place, so nothing half-written is ever at the destination.
struct DestinationFile: Sendable {
  /// Where the finished file goes.
  let destination: URL
  /// Where it is written first: a hidden name in the same folder,
  /// `.NAME.export-PID-RANDOM.partial`, which says which process writes it.
  let temporary: URL
  /// Whether a file already at the destination may be replaced.
  let overwrite: Bool

  /// Checks the destination (its folder must exist; a file there only with `overwrite`) and
  /// reserves a temporary name beside it.
  init(destination: URL, overwrite: Bool) throws(ExportError) {
    let folder = destination.deletingLastPathComponent()
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
      isFolder.boolValue
    else { throw .destinationFolderMissing(path: folder.path) }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory),
      !overwrite || isDirectory.boolValue
    {
      throw .destinationExists(path: destination.path)
    }
    Self.removeAbandoned(beside: destination)
    let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let temporary = folder.appendingPathComponent(
      "\(Self.prefix(for: destination))\(getpid())-\(suffix).partial")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .fileSystem(operation: "create", path: temporary.path, errno: errno)
    }
    close(descriptor)
    self.destination = destination
    self.temporary = temporary
    self.overwrite = overwrite
  }

  /// Flushes the temporary file to disk and moves it to the destination (without
  /// `overwrite`, only if nothing appeared there meanwhile), then flushes the folder.
  func commit() throws(ExportError) {
    try Self.sync(temporary.path)
    if overwrite {
      guard rename(temporary.path, destination.path) == 0 else {
        throw .fileSystem(operation: "rename into place", path: destination.path, errno: errno)
      }
    } else {
      // link(2) fails rather than replace a file that appeared since the check.
      guard link(temporary.path, destination.path) == 0 else {
        let code = errno
        if code == EEXIST { throw .destinationExists(path: destination.path) }
        throw .fileSystem(operation: "link into place", path: destination.path, errno: code)
      }
      unlink(temporary.path)
    }
    try Self.sync(destination.deletingLastPathComponent().path)
  }

  /// Writes `text` as the temporary file's content (for a file made here, not by libav).
  func write(_ text: String) throws(ExportError) {
    do {
      try Data(text.utf8).write(to: temporary)
    } catch {
      throw .fileSystem(operation: "write", path: temporary.path, errno: EIO)
    }
  }

  /// Removes the temporary file.
  func discard() {
    unlink(temporary.path)
  }

  /// The size of the finished file in bytes.
  var size: Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: destination.path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }

  /// The start of the temporary names for `destination`.
  private static func prefix(for destination: URL) -> String {
    ".\(destination.lastPathComponent).export-"
  }

  /// Removes the temporary files of exports to `destination` whose process is gone (killed
  /// with SIGKILL, or the machine stopped): nothing else removes them. Files of a running
  /// process are left alone.
  private static func removeAbandoned(beside destination: URL) {
    let folder = destination.deletingLastPathComponent()
    let prefix = prefix(for: destination)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      return
    }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".partial") {
      let rest = name.dropFirst(prefix.count)
      guard let pid = Int32(rest.prefix { $0 != "-" }), pid > 0 else { continue }
      if Self.hasEnded(pid) {
        unlink(folder.appendingPathComponent(name).path)
      }
    }
  }

  /// Whether process `pid` has ended: it is gone, or a zombie not yet reaped (a killed
  /// exporter whose parent, `offline`, was killed with it waits for init to reap it; it
  /// writes nothing more).
  private static func hasEnded(_ pid: Int32) -> Bool {
    if kill(pid, 0) == -1 && errno == ESRCH { return true }
    // /proc/PID/stat: "PID (NAME) STATE ...", the name in parentheses may hold anything.
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
    return state == "Z" || state == "X"
  }

  private static func sync(_ path: String) throws(ExportError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .fileSystem(operation: "open", path: path, errno: errno) }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw .fileSystem(operation: "flush", path: path, errno: errno)
    }
  }
}
