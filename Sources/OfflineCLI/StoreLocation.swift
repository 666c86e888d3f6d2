import Foundation

/// Where the store (the index and downloaded content) lives when `--store` is not given:
/// `$OFFLINE_STORE`, else `$XDG_DATA_HOME/offline`, else `~/.local/share/offline`.
enum StoreLocation {
  /// A relative path starts at `workingDirectory`.
  static func resolve(explicit: String?, environment: [String: String], workingDirectory: URL)
    -> URL
  {
    func absolute(_ path: String) -> URL {
      URL(fileURLWithPath: path, isDirectory: true, relativeTo: workingDirectory)
        .standardizedFileURL
    }
    if let explicit, !explicit.isEmpty { return absolute(explicit) }
    if let store = environment["OFFLINE_STORE"], !store.isEmpty { return absolute(store) }
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
      return absolute(data).appending(path: "offline", directoryHint: .isDirectory)
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appending(path: ".local/share/offline", directoryHint: .isDirectory)
  }
}
