import Foundation

/// Local file names chosen by OfflineKit, never by a server.
///
/// A URL's path can say anything (`/%2e%2e%2f%2e%2e%2fetc%2fpasswd` decodes to
/// `../../etc/passwd`). The name made here is one path component that cannot climb out of
/// the folder it is put in, cannot be hidden as `.` or `..`, and has no control characters.
package enum LocalFileName {
  /// The name used when a URL gives none (its path ends in `/`, or is empty).
  public static let fallback = "index.html"
  /// The longest name made, in UTF-8 bytes (file systems allow 255).
  public static let maximumLength = 200

  /// A safe file name from the last component of `url`'s path.
  public static func from(_ url: URL) -> String {
    let path = url.path(percentEncoded: false)
    let last = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init)
    return sanitized(last ?? "")
  }

  /// `name` made safe to use as one path component.
  public static func sanitized(_ name: String) -> String {
    var cleaned = String(
      String.UnicodeScalarView(
        name.unicodeScalars.map { scalar in
          let forbidden =
            scalar == "/" || scalar == "\\" || scalar.value < 0x20
            || scalar.value == 0x7F
          return forbidden ? "_" : scalar
        }))
    cleaned = cleaned.trimmingCharacters(in: .whitespaces)
    if cleaned.allSatisfy({ $0 == "." }) { return fallback }
    if cleaned.utf8.count > maximumLength {
      cleaned = truncated(cleaned)
    }
    return cleaned
  }

  /// Shortens a long name to the limit, keeping a short extension.
  /// A folder name for a stream at `url`: the manifest's name without its extension, or its
  /// folder's name when the manifest's says nothing (one of `genericStems`, compared without
  /// case, or empty), made safe; `stream` when both are empty.
  static func streamFolder(for url: URL, genericStems: Set<String>) -> String {
    let stem = url.deletingPathExtension().lastPathComponent
    let parent = url.deletingLastPathComponent().lastPathComponent
    let says = !stem.isEmpty && !genericStems.contains(stem.lowercased())
    let name = says || parent.isEmpty || parent == "/" ? stem : parent
    return sanitized(name.isEmpty ? "stream" : name)
  }

  private static func truncated(_ name: String) -> String {
    let ext = (name as NSString).pathExtension
    let keep = ext.isEmpty || ext.utf8.count > 16 ? "" : "." + ext
    var stem = name
    while stem.utf8.count + keep.utf8.count > maximumLength { stem.removeLast() }
    return stem + keep
  }
}
