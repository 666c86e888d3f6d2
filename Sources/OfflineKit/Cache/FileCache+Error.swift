import Foundation
import OfflineHTTP
import OfflineStore

extension FileCache {
  /// Why the cache could not serve a file. The description is a sentence a user can act on;
  /// URLs in it are redacted.
  public struct Error: Swift.Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    package enum Kind: Sendable {
      /// The URL is not an http or https URL.
      case invalidURL(String)
      /// The download failed (network, HTTP status, length, file): see the ``Transfer/Error``.
      case transfer(Transfer.Error)
      /// Revalidating a stale copy failed on the network, not for want of a connection.
      case network(HTTPError)
      /// The server answered an error status to a revalidation.
      case status(Int, url: URL)
      /// The disk is full: the write stopped; nothing was kept as complete.
      case outOfSpace(path: String)
      /// The download of `needed` bytes would leave less free space than the configured
      /// minimum (`available` bytes are free).
      case insufficientSpace(needed: Int64, available: Int64)
      /// The store quota leaves no room for the file, even with the cache emptied.
      case quotaExceeded(quota: Int64, needed: Int64, pinned: Int64)
      /// The file (`size` bytes) is larger than the cache's whole size limit, so it is not
      /// kept: a cache holds files up to its limit, never one over it.
      case largerThanLimit(size: Int64, limit: Int64)
      /// A local file operation failed.
      case file(TransferFileError)
      /// The index failed.
      case index(StoreError)
    }

    /// The kind of failure.
    package var kind: Kind

    /// Creates an error.
    package init(_ kind: Kind) {
      self.kind = kind
    }

    /// Whether the store ran out of room: disk full, too little free space, or the quota.
    public var isStorageFull: Bool {
      switch kind {
      case .outOfSpace, .insufficientSpace, .quotaExceeded, .largerThanLimit: true
      case .transfer(let error): error.isStorageFull
      case .index(let error): error.kind == .full
      default: false
      }
    }

    /// A sentence a user can act on.
    public var description: String {
      switch kind {
      case .invalidURL(let text):
        return "'\(text)' is not an http or https URL."
      case .transfer(let error):
        return error.description
      case .network(let error):
        return error.description
      case .status(let code, let url):
        return "The server answered \(code) \(HTTPStatusText.phrase(code)) for"
          + " \(url.redactedForDisplay)."
      case .outOfSpace(let path):
        return "The disk is full while writing \(path); nothing was kept as complete."
          + " Free space (or clear the cache) and try again."
      case .insufficientSpace(let needed, let available):
        return "Not enough free space for a download of \(needed) bytes: \(available) bytes"
          + " are free and the cache keeps a minimum free; free some space and try again."
      case .quotaExceeded(let quota, let needed, let pinned):
        return "The store's quota of \(quota) bytes leaves no room for \(needed) more bytes:"
          + " offline content takes \(pinned); delete some content or raise the quota."
      case .largerThanLimit(let size, let limit):
        return "The file is \(size) bytes, more than the cache's size limit of \(limit) bytes;"
          + " it was not kept. Raise the limit to cache it."
      case .file(let error):
        return "Could not \(error.operation.rawValue) \(error.path ?? "a cache file"):"
          + " \(error.reason)."
      case .index(let error):
        return "The cache index failed: \(error)"
      }
    }
  }
}

extension FileCache.Error {
  /// What went wrong, as a stable code to branch on: ``FileCache/Error/code``. Codes are
  /// values, so a release can add one without breaking a `switch` that has a `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `invalidURL`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }

    /// The URL is not an http or https URL.
    public static let invalidURL = Code("invalidURL")

    /// The download failed (network, HTTP status, length, file): see the ``Transfer/Error``.
    public static let transfer = Code("transfer")

    /// Revalidating a stale copy failed on the network, not for want of a connection.
    public static let network = Code("network")

    /// The server answered an error status to a revalidation.
    public static let httpStatus = Code("httpStatus")

    /// The disk is full: the write stopped; nothing was kept as complete.
    public static let outOfSpace = Code("outOfSpace")

    /// The download of `needed` bytes would leave less free space than the configured
    /// minimum (`available` bytes are free).
    public static let insufficientSpace = Code("insufficientSpace")

    /// The store quota leaves no room for the file, even with the cache emptied.
    public static let quotaExceeded = Code("quotaExceeded")

    /// The file (`size` bytes) is larger than the cache's whole size limit, so it is not
    /// kept: a cache holds files up to its limit, never one over it.
    public static let largerThanLimit = Code("largerThanLimit")

    /// A local file operation failed.
    public static let file = Code("file")

    /// The index failed.
    public static let index = Code("index")
  }

  /// The HTTP status the origin answered with, for ``Code-swift.struct/httpStatus``.
  public var httpStatus: Int? {
    if case .status(let status, _) = kind { return status }
    if case .transfer(let error) = kind { return error.httpStatus }
    return nil
  }

  /// The lower layer's error, for logs: a ``Transfer/Error``, an `HTTPError`, a
  /// file error or a `StoreError`; nil when the cache itself saw it.
  public var underlying: (any Swift.Error & Sendable)? {
    switch kind {
    case .transfer(let error): error
    case .network(let error): error
    case .file(let error): error
    case .index(let error): error
    default: nil
    }
  }

  /// What went wrong.
  public var code: Code {
    switch kind {
    case .invalidURL: .invalidURL
    case .transfer: .transfer
    case .network: .network
    case .status: .httpStatus
    case .outOfSpace: .outOfSpace
    case .insufficientSpace: .insufficientSpace
    case .quotaExceeded: .quotaExceeded
    case .largerThanLimit: .largerThanLimit
    case .file: .file
    case .index: .index
    }
  }
}
