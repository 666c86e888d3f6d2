import Foundation

/// An executable the package builds, found beside the test bundle in the build folder.
public enum BuiltProduct {
  /// The path of the built executable `name` (such as `offline`), or `name` itself when the
  /// build folder holds none, so that running it fails with a clear "not found".
  public static func path(_ name: String) -> String {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL.deletingLastPathComponent(),
      Bundle.main.bundleURL,
    ]
    for folder in candidates {
      let path = folder.appending(path: name).path
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return name
  }
}
