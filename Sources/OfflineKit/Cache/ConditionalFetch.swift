import Foundation
import OfflineHTTP

/// Receives the answer to a conditional request for a stale cache entry: nothing for a 304,
/// the new body into a temporary file for a 200, which ``finish(into:expectedLength:)``
/// renames over the entry's file in one step.
///
/// `@unchecked Sendable` is sound because the mutable members are touched by one thread at a
/// time: the transport's network thread during the request, then the caller once `perform`
/// has returned (its completion orders the two).
final class ConditionalFetch: HTTPResponseDelegate, @unchecked Sendable {
  let temporaryPath: String
  private let limit: Int64?
  private var descriptor: Int32 = -1
  private var length: Int64 = 0
  /// A `Content-Length` over the limit, when the body was refused for it.
  private(set) var refusedLength: Int64?
  private var openError: TransferFileError?

  init(temporaryPath: String, limit: Int64?) {
    self.temporaryPath = temporaryPath
    self.limit = limit
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    guard head.status == 200 else { return .discard }
    if let limit, let length = head.contentLength, length > limit {
      refusedLength = length
      return .stop
    }
    descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      openError = TransferFileError(.open, errno: errno, path: temporaryPath)
      return .stop
    }
    return .receive
  }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    var start = 0
    while start < bytes.count {
      let wrote = write(descriptor, bytes.baseAddress! + start, bytes.count - start)
      if wrote < 0, errno == EINTR { continue }
      guard wrote > 0 else {
        throw TransferFileError(.write, errno: wrote < 0 ? errno : EIO, path: temporaryPath)
      }
      start += wrote
      length += Int64(wrote)
    }
  }

  /// Syncs the new body, checks its length and renames it onto `path`.
  func finish(into path: String, expectedLength: Int64?) throws(TransferFileError) -> Int64 {
    if let openError { throw openError }
    guard descriptor >= 0 else { throw TransferFileError(.open, errno: EIO, path: temporaryPath) }
    guard Durability.syncData(descriptor) == 0 else {
      throw TransferFileError(.sync, errno: errno, path: temporaryPath)
    }
    close(descriptor)
    descriptor = -1
    if let expectedLength, expectedLength != length {
      throw TransferFileError(.read, errno: EIO, path: temporaryPath)
    }
    try CacheFiles.renameDurably(temporaryPath, to: path)
    return length
  }

  /// Deletes the temporary file, if any.
  func discard() {
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    CacheFiles.remove(temporaryPath)
  }
}
