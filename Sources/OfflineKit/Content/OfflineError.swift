import Foundation
import OfflineStore

/// Why a call on the offline manager or a content failed: a stable ``code`` to branch on,
/// a ``description`` that is a sentence a user can act on, and the details some codes carry
/// (``httpStatus``, ``state``, ``damage``, ``underlying``).
///
/// Two errors are equal when they say the same: the same code (and status), the same
/// content and the same sentence.
public struct OfflineError: Error, Sendable, CustomStringConvertible, Equatable {
  /// The failure with its details, as the package's modules match on it; apps read
  /// ``code`` and the detail properties, which can grow without breaking them.
  package enum Kind: Sendable {
    /// The call is not allowed in the content's state; nothing changed.
    case invalidTransition(OfflineAction, from: OfflineState)
    /// No content has this id.
    case unknownContent(String)
    /// A content with this id exists already, for another URL.
    case duplicateID(String)
    /// The URL is not an http or https URL.
    case invalidURL(String)
    /// The id has characters an id cannot have (it names a folder in the store).
    case invalidID(String)
    /// The download failed.
    case transfer(Transfer.Error)
    /// The index failed.
    case index(StoreError)
    /// Another process works this store's queue.
    case storeBusy(String)
    /// The content cannot fit on the file system at `path` even if it held nothing else:
    /// its size plus the free-space margin is `needed` bytes more than its `capacity`.
    case insufficientCapacity(needed: Int64, capacity: Int64, path: String)
    /// A SHA-256 given to check a file against is not 64 hexadecimal digits.
    case invalidChecksum(String)
    /// The download was canceled before it finished (see
    /// ``OfflineContent/waitUntilDownloaded()``).
    case canceled
    /// The content is not downloaded and no download of it is queued.
    case notQueued
    /// The manager closed, or the waiting task was canceled, before the content was
    /// downloaded.
    case closed
    /// The downloaded content's files are not what the download recorded (missing, short,
    /// changed or wrong bytes): it cannot be played or opened until it is repaired.
    case damaged(ContentDamage)
    /// The origin serves another version than the one downloaded (its validators or bytes
    /// differ): a repair would mix versions, so nothing was changed; download it again.
    case originChanged(url: String)
    /// The content has no record of what its files must be (downloaded by an earlier
    /// version): it cannot be verified or repaired piece by piece.
    case nothingRecorded
    /// Only a downloaded content can be verified or repaired; this one is in another state.
    case notVerifiable(OfflineState)
    /// A fresh URL was asked for (``URLRefresh``, `get --refresh-command`) and none came:
    /// the hook failed, took longer than its timeout, or gave something that is not an http
    /// or https URL. The content's partial data is kept.
    case urlRefreshFailed(String)
    /// The content is not downloaded: nothing on disk to play yet.
    case notPlayable(OfflineState)
    /// An error kept in the store (a content's last error), as it was recorded: the name of
    /// its code (``kindName``) and its sentence.
    case recorded(codeName: String, message: String)
    /// The URL of a content in this state is not replaced (``OfflineManager/setURL(_:for:expiresAt:)``
    /// takes a queued, downloading, suspended or not downloaded content).
    case urlNotReplaceable(OfflineState)
  }

  /// The failure with its details.
  package var kind: Kind
  /// The content concerned, when there is one.
  public var contentID: String?

  /// Creates an error.
  package init(_ kind: Kind, contentID: String? = nil) {
    self.kind = kind
    self.contentID = contentID
  }

  /// A short name of the kind, for programs (the index's `last_error_kind`, the service's
  /// JSON `kind`): ``code``'s name, with the status for an HTTP status (`http404`).
  package var kindName: String {
    if case .recorded(let name, _) = kind { return name }
    if let status = httpStatus { return "http\(status)" }
    return code.name
  }

  /// Whether `a` and `b` say the same: code and status, content and sentence.
  public static func == (a: OfflineError, b: OfflineError) -> Bool {
    a.kindName == b.kindName && a.contentID == b.contentID && a.description == b.description
  }

  /// A sentence a user can act on.
  public var description: String {
    let subject = contentID.map { "content \($0)" } ?? "the content"
    switch kind {
    case .invalidTransition(let action, let state):
      return "Cannot \(Self.verb(action)) \(subject): it is \(state.phrase)."
    case .unknownContent(let id):
      return "No content has the id \(id)."
    case .duplicateID(let id):
      return "The id \(id) is taken by another URL; choose another id."
    case .invalidURL(let text):
      return "'\(text)' is not an http or https URL."
    case .invalidID(let id):
      return "'\(id)' cannot be an id: use up to 64 letters, digits, '.', '_' and '-',"
        + " not starting with '.'."
    case .transfer(let error):
      return error.description
    case .index(let error):
      return "The index failed: \(error)"
    case .storeBusy(let detail):
      return detail
    case .insufficientCapacity(let needed, let capacity, let path):
      return "\(subject.prefix(1).uppercased() + subject.dropFirst()) needs \(needed) more bytes"
        + " than the file system at \(path) holds (\(capacity) bytes), counting the free"
        + " space to keep; freeing space will not help: lower the free-space margin or use a"
        + " larger disk."
    case .invalidChecksum(let text):
      return "'\(text.prefix(80))' is not a SHA-256: it takes 64 hexadecimal digits."
    case .canceled:
      return "The download of \(subject) was canceled."
    case .notQueued:
      return "\(subject.prefix(1).uppercased() + subject.dropFirst()) is not downloaded and"
        + " no download of it is queued."
    case .closed:
      return "The manager closed before \(subject) was downloaded."
    case .damaged(let damage):
      return "\(subject.prefix(1).uppercased() + subject.dropFirst()) is damaged: \(damage)."
        + " Repair it (offline repair) before playing it."
    case .originChanged(let url):
      return
        "The origin changed \(URL(string: url)?.redactedForDisplay ?? "the source") since \(subject) was downloaded;"
        + " nothing was repaired, to keep from mixing versions: download it again"
        + " (repair --redownload)."
    case .nothingRecorded:
      return "\(subject.prefix(1).uppercased() + subject.dropFirst()) has no record of what"
        + " its files must be (downloaded by an earlier version); download it again to"
        + " verify it."
    case .notVerifiable(let state):
      return "Cannot verify or repair \(subject): it is \(state.phrase)"
        + (state == .notDownloaded ? "." : ", not downloaded.")
    case .urlRefreshFailed(let reason):
      return "No fresh URL for \(subject): \(reason). Its partial data is kept; give a new"
        + " URL with 'offline set-url' and resume it."
    case .urlNotReplaceable(let state):
      return "Cannot replace the URL of \(subject): it is \(state.phrase)."
    case .recorded(_, let message):
      return message
    case .notPlayable(let state):
      return "\(subject.prefix(1).uppercased() + subject.dropFirst()) has nothing to play"
        + " yet: it is \(state.phrase), not downloaded."
    }
  }

  private static func verb(_ action: OfflineAction) -> String {
    switch action {
    case .download: "download"
    case .suspend: "pause"
    case .resume: "resume"
    case .cancel: "cancel"
    case .delete: "delete the offline data of"
    }
  }
}
