import Foundation
import OfflineHTTP
import OfflineStore

extension Transfer {
  /// Why a transfer did not complete. The description is a sentence a user can act on; URLs
  /// in it are redacted.
  public struct Error: Swift.Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    package enum Kind: Sendable {
      /// No complete response: see the `HTTPError` (OfflineHTTP).
      case network(HTTPError)
      /// The server answered with an HTTP error status.
      case status(Int, retryAfter: Duration?)
      /// The server broke the range protocol (a `Content-Range` that does not start where
      /// asked, repeatedly).
      case protocolViolation(String)
      /// The finished file's length is not the length the server announced.
      case lengthMismatch(expected: Int64, actual: Int64)
      /// The finished file's SHA-256 is not the one expected.
      case checksumMismatch(expected: String, actual: String)
      /// Reading or writing a local file failed.
      case file(TransferFileError)
      /// The index database failed.
      case index(StoreError)
      /// Something that OfflineKit did not download is at the destination.
      case destinationExists
      /// Something other than a regular file or a symbolic link is at the destination (a
      /// folder, a device, a FIFO, a socket: named in the text); it is never replaced.
      case destinationNotAFile(String)
      /// Another download (named when it could be found) is writing the same destination;
      /// only one writer may hold a destination at a time.
      case destinationBusy(LockHolder?)
      /// The expected checksum is not 64 hex digits.
      case invalidChecksum(String)
      /// A playlist or key is not what offline playback needs (a live stream, a key that is not
      /// 16 bytes, a DRM key format, a URI that is not http or https); the text says which.
      case invalidMedia(String)
      /// A request option cannot be used (a header with a line break, an unreadable or
      /// malformed cookies file…); nothing was requested.
      case invalidRequestOptions(RequestOptionError)
      /// A mirror (``Configuration/mirrors``) is not an http or https URL with a host (the
      /// text names it, redacted); nothing was requested or written.
      case invalidMirror(String)
      /// The answer is a Metalink (by its `Content-Type`) or names one (RFC 6249 `Link:
      /// rel=describedby`), at this URL, and the transfer was asked to stop there
      /// (``Configuration/stopsAtMetalink``); nothing of the file was written.
      case describedByMetalink(URL)
      /// The transfer was cancelled; the partial data and the journal are kept.
      case canceled
    }

    /// The kind of failure.
    package var kind: Kind
    /// The URL being downloaded.
    public var url: URL
    /// The final file's path.
    public var destination: String

    /// Creates an error.
    package init(_ kind: Kind, url: URL, destination: String) {
      self.kind = kind
      self.url = url
      self.destination = destination
    }

    /// Whether trying again may succeed: connection trouble, a stall, 408, 429 and 5xx.
    public var isTransient: Bool {
      switch kind {
      case .network(let error): error.isTransient
      case .status(let code, _): code == 408 || code == 429 || (500...599).contains(code)
      default: false
      }
    }

    /// The wait a server asked for with `Retry-After`, if it did.
    public var retryAfter: Duration? {
      if case .status(_, let after) = kind { return after }
      return nil
    }

    /// Whether the transfer threw its bytes away when it failed (a checksum mismatch), so
    /// nothing is left to resume.
    var discardedData: Bool {
      if case .checksumMismatch = kind { return true }
      return false
    }

    /// Whether the disk ran out of space; the transfer resumes once space is freed.
    public var isOutOfSpace: Bool {
      if case .file(let error) = kind { return error.isOutOfSpace }
      return false
    }

    /// A sentence a user can act on.
    public var description: String {
      let link = url.redactedForDisplay
      switch kind {
      case .network(let error):
        return error.description
      case .status(let code, _):
        return "The server answered \(code) \(HTTPStatusText.phrase(code)) for \(link)."
      case .protocolViolation(let what):
        return "Gave up on \(link): \(what)."
      case .lengthMismatch(let expected, let actual):
        return "The download of \(link) has \(actual) bytes where the server announced"
          + " \(expected); the partial file was kept and the next run resumes it."
      case .checksumMismatch(let expected, let actual):
        return "The SHA-256 of \(link) is \(actual), not the expected \(expected);"
          + " the file was not kept as complete."
      case .file(let error):
        let path = error.path ?? destination
        if error.isOutOfSpace {
          return "The disk is full while writing \(path); free space and run again to resume."
        }
        if error.operation == .createDirectory, error.errno == ELOOP {
          return "\(path) is a symbolic link where a folder of the content belongs; it is"
            + " never followed: remove it and run again."
        }
        if error.operation == .createDirectory, error.errno == ESTALE {
          return "\(path) was moved or replaced while the content downloaded; its files are"
            + " not where they belong: run again."
        }
        return "Could not \(error.operation.rawValue) \(path): \(error.reason)."
      case .index(let error):
        return "The download index failed: \(error)"
      case .destinationExists:
        return "\(destination) already exists and was not downloaded by OfflineKit;"
          + " remove it, or choose another output path."
      case .destinationNotAFile(let what):
        return "\(destination) is \(what), not a regular file; it is never replaced."
          + " Choose another output path."
      case .destinationBusy(let holder):
        let who = holder.map { "Another process (\($0))" } ?? "Another process"
        return "\(who) is downloading to \(destination); only one download may write a file"
          + " at a time."
      case .invalidChecksum(let text):
        return "\"\(text)\" is not a SHA-256: it must be 64 hexadecimal digits."
      case .invalidMedia(let what):
        return "Cannot make \(link) available offline: \(what)."
      case .invalidRequestOptions(let error):
        return "Cannot request \(link): \(error)"
      case .invalidMirror(let mirror):
        return "The mirror \(mirror) is not an http or https URL with a host; nothing was"
          + " downloaded."
      case .describedByMetalink(let document):
        return "\(link) is described by the Metalink \(document.redactedForDisplay); nothing"
          + " was downloaded from it."
      case .canceled:
        return "The download of \(link) was stopped; run it again to resume."
      }
    }
  }
}

extension Transfer.Error {
  /// What went wrong, as a stable code to branch on: ``Transfer/Error/code``. Codes are
  /// values, so a release can add one without breaking a `switch` that has a `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `network`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }

    /// No complete response: see the `HTTPError` (OfflineHTTP).
    public static let network = Code("network")

    /// The server answered with an HTTP error status.
    public static let httpStatus = Code("httpStatus")

    /// The server broke the range protocol (a `Content-Range` that does not start where
    /// asked, repeatedly).
    public static let protocolViolation = Code("protocolViolation")

    /// The finished file's length is not the length the server announced.
    public static let lengthMismatch = Code("lengthMismatch")

    /// The finished file's SHA-256 is not the one expected.
    public static let checksumMismatch = Code("checksumMismatch")

    /// Reading or writing a local file failed.
    public static let file = Code("file")

    /// The index database failed.
    public static let index = Code("index")

    /// Something that OfflineKit did not download is at the destination.
    public static let destinationExists = Code("destinationExists")

    /// Something other than a regular file or a symbolic link is at the destination (a
    /// folder, a device, a FIFO, a socket: named in the text); it is never replaced.
    public static let destinationNotAFile = Code("destinationNotAFile")

    /// Another download (named when it could be found) is writing the same destination;
    /// only one writer may hold a destination at a time.
    public static let destinationBusy = Code("destinationBusy")

    /// The expected checksum is not 64 hex digits.
    public static let invalidChecksum = Code("invalidChecksum")

    /// A playlist or key is not what offline playback needs (a live stream, a key that is not
    /// 16 bytes, a DRM key format, a URI that is not http or https); the text says which.
    public static let invalidMedia = Code("invalidMedia")

    /// A request option cannot be used (a header with a line break, an unreadable or
    /// malformed cookies file…); nothing was requested.
    public static let invalidRequestOptions = Code("invalidRequestOptions")

    /// A mirror is not an http or https URL with a host; nothing was requested.
    public static let invalidMirror = Code("invalidMirror")

    /// The answer is or names a Metalink, and the transfer was asked to stop there; nothing
    /// of the file was written.
    public static let describedByMetalink = Code("describedByMetalink")

    /// The transfer was cancelled; the partial data and the journal are kept.
    public static let canceled = Code("canceled")
  }

  /// The HTTP status the origin answered with, for ``Code-swift.struct/httpStatus``.
  public var httpStatus: Int? {
    if case .status(let status, _) = kind { return status }
    return nil
  }

  /// The lower layer's error, for logs: an `HTTPError`, a `StoreError`, a
  /// file error (its path and errno) or a `RequestOptionError`; nil when the transfer itself
  /// saw it.
  public var underlying: (any Swift.Error & Sendable)? {
    switch kind {
    case .network(let error): error
    case .index(let error): error
    case .file(let error): error
    case .invalidRequestOptions(let error): error
    default: nil
    }
  }

  /// What went wrong.
  public var code: Code {
    switch kind {
    case .network: .network
    case .status: .httpStatus
    case .protocolViolation: .protocolViolation
    case .lengthMismatch: .lengthMismatch
    case .checksumMismatch: .checksumMismatch
    case .file: .file
    case .index: .index
    case .destinationExists: .destinationExists
    case .destinationNotAFile: .destinationNotAFile
    case .destinationBusy: .destinationBusy
    case .invalidChecksum: .invalidChecksum
    case .invalidMedia: .invalidMedia
    case .invalidRequestOptions: .invalidRequestOptions
    case .invalidMirror: .invalidMirror
    case .describedByMetalink: .describedByMetalink
    case .canceled: .canceled
    }
  }
}
