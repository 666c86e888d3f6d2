import Foundation

extension OfflineError {
  /// What went wrong, as a stable code to branch on: ``OfflineError/code``.
  ///
  /// Codes are values, not enum cases, so a release can add one without breaking an app's
  /// code: compare with `==`, or `switch` with a `default`.
  ///
  /// ```swift
  /// do throws(OfflineError) {
  ///   _ = try await content.waitUntilDownloaded()
  /// } catch where error.code == .canceled {
  ///   // The user canceled it: nothing to report.
  /// } catch {
  ///   print(error.description)
  /// }
  /// ```
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as the service's JSON and `ls --json` spell it.
    public let name: String

    fileprivate init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }

    /// The call is not allowed in the content's state; nothing changed
    /// (``OfflineError/state`` says which state).
    public static let invalidTransition = Code("invalidTransition")
    /// No content has this id.
    public static let unknownContent = Code("unknownContent")
    /// A content with this id exists already, for another URL.
    public static let duplicateID = Code("duplicateID")
    /// The URL is not an http or https URL.
    public static let invalidURL = Code("invalidURL")
    /// The id has characters an id cannot have.
    public static let invalidID = Code("invalidID")
    /// The network failed: the name did not resolve, the connection was refused, cut or
    /// stalled, TLS failed.
    public static let network = Code("network")
    /// The origin answered with an HTTP status that is not a success
    /// (``OfflineError/httpStatus`` says which).
    public static let httpStatus = Code("httpStatus")
    /// The bytes downloaded do not match the checksum they were expected to have.
    public static let checksumMismatch = Code("checksumMismatch")
    /// The origin sent another number of bytes than it announced.
    public static let lengthMismatch = Code("lengthMismatch")
    /// The file system is full.
    public static let storage = Code("storage")
    /// A file could not be written, read, moved or synced.
    public static let file = Code("file")
    /// The download failed for another reason (``OfflineError/underlying`` says which).
    public static let downloadFailed = Code("downloadFailed")
    /// The store's index could not be read or written.
    public static let index = Code("index")
    /// Another process works this store's queue.
    public static let storeBusy = Code("storeBusy")
    /// The content cannot fit on the file system even if it held nothing else.
    public static let insufficientCapacity = Code("insufficientCapacity")
    /// A SHA-256 given to check a file against is not 64 hexadecimal digits.
    public static let invalidChecksum = Code("invalidChecksum")
    /// The download was canceled before it finished.
    public static let canceled = Code("canceled")
    /// The content is not downloaded and no download of it is queued.
    public static let notQueued = Code("notQueued")
    /// The manager closed, or the waiting task was canceled, first.
    public static let closed = Code("closed")
    /// The downloaded content's files are not what the download recorded
    /// (``OfflineError/damage`` names what).
    public static let damaged = Code("damaged")
    /// The origin serves another version than the one downloaded.
    public static let originChanged = Code("originChanged")
    /// The content has no record of what its files must be.
    public static let nothingRecorded = Code("nothingRecorded")
    /// Only a downloaded content can be verified or repaired.
    public static let notVerifiable = Code("notVerifiable")
    /// A fresh URL was asked for and none came.
    public static let urlRefreshFailed = Code("urlRefreshFailed")
    /// The URL of a content in this state is not replaced.
    public static let urlNotReplaceable = Code("urlNotReplaceable")
    /// The content is not downloaded: there is nothing to play yet
    /// (``OfflineError/state`` says where it stands).
    public static let notPlayable = Code("notPlayable")
  }

  /// What went wrong, as a stable code.
  public var code: Code {
    switch kind {
    case .invalidTransition: .invalidTransition
    case .unknownContent: .unknownContent
    case .duplicateID: .duplicateID
    case .invalidURL: .invalidURL
    case .invalidID: .invalidID
    case .transfer(let error):
      switch error.kind {
      case .network(let failure): failure.kind == .canceled ? .canceled : .network
      case .status: .httpStatus
      case .checksumMismatch: .checksumMismatch
      case .lengthMismatch: .lengthMismatch
      case .file(let file): file.isOutOfSpace ? .storage : .file
      case .canceled: .canceled
      default: .downloadFailed
      }
    case .index: .index
    case .storeBusy: .storeBusy
    case .insufficientCapacity: .insufficientCapacity
    case .invalidChecksum: .invalidChecksum
    case .canceled: .canceled
    case .notQueued: .notQueued
    case .closed: .closed
    case .damaged: .damaged
    case .originChanged: .originChanged
    case .nothingRecorded: .nothingRecorded
    case .notVerifiable: .notVerifiable
    case .urlRefreshFailed: .urlRefreshFailed
    case .urlNotReplaceable: .urlNotReplaceable
    case .notPlayable: .notPlayable
    case .recorded(let name, _): Self.recordedStatus(name) != nil ? .httpStatus : Code(name)
    }
  }

  /// The lower-level error behind this one (the download's or the index's), for logs and
  /// diagnostics; nil when there is none. Its type is not part of the contract.
  public var underlying: (any Error)? {
    switch kind {
    case .transfer(let error): error
    case .index(let error): error
    default: nil
    }
  }

  /// The HTTP status the origin answered with, for ``Code/httpStatus``.
  public var httpStatus: Int? {
    if case .recorded(let name, _) = kind { return Self.recordedStatus(name) }
    guard case .transfer(let error) = kind, case .status(let status, _) = error.kind else {
      return nil
    }
    return status
  }

  /// The status in a recorded code name such as `http404`.
  private static func recordedStatus(_ name: String) -> Int? {
    name.hasPrefix("http") ? Int(name.dropFirst(4)) : nil
  }

  /// The content's state that refused the call, for ``Code/invalidTransition``,
  /// ``Code/notVerifiable``, ``Code/urlNotReplaceable`` and ``Code/notPlayable``.
  public var state: OfflineState? {
    switch kind {
    case .invalidTransition(_, let state), .notVerifiable(let state),
      .urlNotReplaceable(let state), .notPlayable(let state):
      state
    default: nil
    }
  }

  /// What is wrong with the content's files, for ``Code/damaged``.
  public var damage: ContentDamage? {
    guard case .damaged(let damage) = kind else { return nil }
    return damage
  }
}
