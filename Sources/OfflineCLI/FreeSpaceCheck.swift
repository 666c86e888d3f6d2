import Foundation
import OfflineKit

/// `get --min-free`: what `get` says when a download would not fit on the destination's
/// file system with the margin left free (the library decides; see
/// `ContentDownload.spaceShortage(keepingFree:)`).
enum FreeSpaceCheck {
  /// A sentence saying why the download of `url` would not fit.
  static func message(_ need: ContentDownload.SpaceShortage, url: URL) -> String {
    switch need.shortage {
    case .capacity(let needed):
      return "\(url.redactedForDisplay) needs \(needed) more bytes than the file system at"
        + " \(need.folder) holds (\(need.space.capacity) bytes): \(need.length) for the file and"
        + " \(need.margin) to keep free (--min-free)."
    case .available(let needed):
      return "\(url.redactedForDisplay) needs \(needed) more bytes of free space at"
        + " \(need.folder): \(need.remaining) to download and \(need.margin) to keep free"
        + " (--min-free), with \(need.space.available) available."
    }
  }
}
