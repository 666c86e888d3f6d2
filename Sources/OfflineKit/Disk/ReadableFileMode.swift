import Foundation

/// The mode of a text file written into a content's folder for players (an offline
/// playlist or MPD): readable by others (0644), unless its text holds a `?`. A remote URL
/// kept in it may carry a query (a signed URL's token, a key URI's signature), which stays
/// with the user (0600), as the store keeps its secrets; players run as the user read it
/// either way.
enum ReadableFileMode {
  /// For a file that others may read.
  static let shared: mode_t = 0o644
  /// For a file only its owner reads.
  static let owner: mode_t = 0o600

  /// ``owner`` when `text` holds a `?` (a URL query, perhaps signed), else ``shared``.
  static func mode(for text: some StringProtocol) -> mode_t {
    text.utf8.contains(UInt8(ascii: "?")) ? owner : shared
  }
}
