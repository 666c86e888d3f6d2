import Foundation

/// A fresh directory under the system temporary directory that removes itself when released.
///
/// Each instance gets a unique name, so parallel tests never share one. The directory and
/// everything in it is deleted in `deinit`; set the environment variable
/// `OFFLINEKIT_KEEP_TEMP=1` to keep it for inspection after a failing test.
///
/// ```swift
/// let dir = try TemporaryDirectory()
/// try TestData.writeFile(at: dir.file("a.bin"), count: 1024)
/// ```
public final class TemporaryDirectory: Sendable {
  /// The directory's location.
  public let url: URL

  /// The directory's file-system path.
  public var path: String { url.path }

  /// Creates a new, empty directory named `<prefix>-<random>`.
  ///
  /// - Parameter prefix: The start of the directory's name, to tell test leftovers apart.
  /// - Throws: The file manager's error when the directory cannot be created.
  public init(prefix: String = "offlinekit-test") throws {
    let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())-\(getpid())"
    url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The location of an entry named `name` inside this directory; nothing is created.
  ///
  /// - Parameter name: A file name or a relative path such as `"sub/a.bin"`.
  public func file(_ name: String) -> URL {
    url.appendingPathComponent(name, isDirectory: false)
  }

  deinit {
    if ProcessInfo.processInfo.environment["OFFLINEKIT_KEEP_TEMP"] == "1" { return }
    try? FileManager.default.removeItem(at: url)
  }
}
