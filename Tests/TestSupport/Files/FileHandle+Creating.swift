import Foundation

extension FileHandle {
  /// Creates (or truncates) the file at `url` and opens it for writing.
  static func creatingEmptyFile(at url: URL) throws -> FileHandle {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw TestSupportError.systemCall("creat(\(url.path))", errno: errno)
    }
    return try FileHandle(forWritingTo: url)
  }
}
