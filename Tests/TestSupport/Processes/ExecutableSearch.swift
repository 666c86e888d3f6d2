import Foundation

/// Finds programs the tests run: the first executable of a name on `PATH` or in the usual
/// install directories.
public enum ExecutableSearch {
  /// The path of the executable `name`, or nil when none is installed.
  public static func path(of name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let directories =
      path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
    return directories.map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }
}
