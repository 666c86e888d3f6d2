import Foundation
import OfflineHTTP
import OfflineKit

/// `get --min-free`: before a download starts, whether its bytes fit on the destination's
/// file system with the margin left free.
enum FreeSpaceCheck {
  /// A sentence saying why the download would not fit, or nil when it fits. The size comes
  /// from a `HEAD` request; when the server does not tell it (or for a stream), only the
  /// margin is checked. The request is made with the download's `options` (a source behind
  /// a token answers its `HEAD` only with the token).
  static func problem(
    url: URL, destination: String, margin: Int64, transport: any HTTPTransporting,
    options: RequestOptions
  ) async -> String? {
    let folder = existingFolder(of: destination)
    guard let space = StorageSpace(at: folder) else { return nil }
    var length: Int64 = 0
    if !HLSDownload.isPlaylistURL(url), !DASHDownload.isManifestURL(url),
      let head = try? await transport.perform(
        HTTPRequest(url: url, method: .head, options: options), delegate: HeadOnly()),
      (200..<300).contains(head.status)
    {
      length = head.contentLength ?? 0
    }
    if length + margin > space.capacity {
      return "\(url.redactedForDisplay) needs \(length + margin - space.capacity) more bytes"
        + " than the file system at \(folder) holds (\(space.capacity) bytes): \(length) for"
        + " the file and \(margin) to keep free (--min-free)."
    }
    var partInfo = stat()
    let written =
      lstat(destination + ".part", &partInfo) == 0 && (partInfo.st_mode & S_IFMT) == S_IFREG
      ? Int64(partInfo.st_size) : 0
    let remaining = max(0, length - written)
    guard space.available - remaining < margin else { return nil }
    return "\(url.redactedForDisplay) needs \(remaining + margin - space.available) more bytes"
      + " of free space at \(folder): \(remaining) to download and \(margin) to keep free"
      + " (--min-free), with \(space.available) available."
  }

  /// The folder of `path`, or its nearest ancestor that exists.
  private static func existingFolder(of path: String) -> String {
    var folder = (path as NSString).deletingLastPathComponent
    while !folder.isEmpty, folder != "/", !FileManager.default.fileExists(atPath: folder) {
      folder = (folder as NSString).deletingLastPathComponent
    }
    return folder.isEmpty ? "." : folder
  }
}

/// Takes a `HEAD` response's head and nothing else.
private final class HeadOnly: HTTPResponseDelegate {
  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition { .discard }
  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {}
}
