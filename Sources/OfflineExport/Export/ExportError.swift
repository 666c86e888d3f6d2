import Foundation

/// Why an export failed. Whatever the case, nothing is left at the destination.
public enum ExportError: Error, Sendable, Equatable {
  /// The source folder or playlist does not exist.
  case sourceNotFound(path: String)
  /// The source exists but is not an offline stream: no `index.m3u8` or `index.mpd`, or a file
  /// that is not a playlist.
  case notAStream(path: String)
  /// The stream is one this version cannot export yet; the reason says what.
  case unsupportedSource(path: String, reason: String)
  /// The destination's extension names no format this module writes; pass one explicitly.
  case unknownFormat(path: String)
  /// A track's codec cannot be stored in the chosen container (both named as libav names them,
  /// such as `webvtt` and `mp4`).
  case unsupportedCodec(codec: String, container: String)
  /// A file already exists at the destination and `overwrite` was not asked for.
  case destinationExists(path: String)
  /// The folder the destination should be written in does not exist.
  case destinationFolderMissing(path: String)
  /// The file written does not match the offline copy; the detail says where.
  case verificationFailed(detail: String)
  /// A libav call failed: the function, its error code and libav's message for it.
  case libav(call: String, code: Int32, message: String)
  /// A file system call failed: what was done, to which path, and `errno`.
  case fileSystem(operation: String, path: String, errno: Int32)
  /// The export's task was cancelled.
  case cancelled
}

extension ExportError: CustomStringConvertible {
  /// A sentence a user can act on.
  public var description: String {
    switch self {
    case .sourceNotFound(let path): "Nothing to export: \(path) does not exist."
    case .notAStream(let path):
      "\(path) is not an offline stream (no index.m3u8 or index.mpd playlist)."
    case .unsupportedSource(let path, let reason): "\(path) cannot be exported yet: \(reason)."
    case .unknownFormat(let path):
      "Cannot tell the format of \(path) from its extension: use .mp4 or .mkv."
    case .unsupportedCodec(let codec, let container):
      "A \(codec) track cannot be stored in \(container); try another container."
    case .destinationExists(let path):
      "\(path) already exists; choose another name or allow overwriting it."
    case .destinationFolderMissing(let path): "The folder \(path) does not exist."
    case .verificationFailed(let detail):
      "The exported file does not match the offline copy (\(detail)); nothing was kept."
    case .libav(let call, let code, let message): "\(call) failed (\(code)): \(message)."
    case .fileSystem(let operation, let path, let code):
      "Could not \(operation) \(path): \(String(cString: strerror(code)))."
    case .cancelled: "The export was cancelled; nothing was kept."
    }
  }
}
