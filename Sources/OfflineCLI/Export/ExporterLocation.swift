import Foundation

/// Where `offline-export` is: beside the running executable (as the package builds and
/// installs the two), else the first on `PATH`.
enum ExporterLocation {
  /// The executable's name.
  static let name = "offline-export"

  /// The path of `offline-export`, or why there is none: looked for in `folder` (by default
  /// the running executable's), then in `PATH`'s folders.
  static func find(
    environment: [String: String], beside folder: String? = runningExecutableFolder()
  ) throws(ExporterError) -> String {
    var folders = folder.map { [$0] } ?? []
    folders += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
    for candidate in folders where !candidate.isEmpty {
      let path = (candidate as NSString).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw .notInstalled(folder: folder)
  }

  /// The folder of the running executable: `offline`'s, or a test runner's when the tool runs
  /// inside one (the build folder holds both). Read from `/proc/self/exe`, which names the
  /// file even when the process was started through a link or a relative path.
  static func runningExecutableFolder() -> String? {
    #if os(Linux)
      let file = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    #else
      let file = Bundle.main.executablePath
    #endif
    return file.map { ($0 as NSString).deletingLastPathComponent }
  }
}
