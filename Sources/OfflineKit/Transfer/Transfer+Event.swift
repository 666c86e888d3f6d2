import Foundation
import OfflineStore

extension Transfer {
  /// Why bytes already on disk were thrown away and the download started from byte 0.
  public enum RestartReason: String, Sendable, Equatable {
    /// The stored download has no strong validator to resume it safely.
    case noValidator
    /// The remote file changed since the partial download (a new ETag or date).
    case resourceChanged
    /// The server ignores ranges and sent the whole file.
    case rangesIgnored
    /// The server answered a range request with other bytes than asked.
    case rangeMismatch
    /// The remote file's length changed.
    case lengthChanged
    /// The partial file was written by another download, or its journal was lost.
    case unknownPartialFile
    /// The server answered a resume in a content encoding (gzip, say) other than the
    /// identity bytes on disk, so its body cannot be appended.
    case encodingChanged
    /// The complete file was changed on disk since its download (its size, modification
    /// time or inode differ, or its SHA-256 no longer matches), so it is downloaded again.
    case completedFileChanged
  }

  /// What a running transfer reports. Delivered on the task that runs the transfer, never on
  /// the network thread, in order.
  package enum Event: Sendable {
    /// A request went out; `offset` is where the body will be appended (0 for a fresh start).
    case requesting(offset: Int64)
    /// Bytes on disk were thrown away and the download starts from byte 0.
    case restarted(Transfer.RestartReason)
    /// Progress, at most about four times a second, never moving backwards except after
    /// a `restarted` event.
    case progress(OfflineProgress)
    /// A transient failure; the next attempt starts after `delay`.
    case retrying(attempt: Int, delay: Duration, error: Transfer.Error)
    /// Every byte arrived; the length and checksum are being checked.
    case verifying
    /// A mirror (``Configuration/mirrors``) is no longer used, for `reason` (a phrase): it
    /// disagreed with the file before any of its bytes were used, or kept failing.
    case sourceDropped(URL, reason: String)
    /// These pieces (by index, ``Configuration/pieces``) did not have their SHA-256 and are
    /// fetched again, alone.
    case refetchingPieces([Int])
    /// The origin cannot serve the file in ranges, for `reason` (a phrase: it could not be
    /// reached, answered 5xx, or serves no ranges): the peer at the URL
    /// (``Configuration/peers``) serves it whole instead, and its bytes are checked against
    /// the length and SHA-256 of the peer's own record, which the origin cannot confirm.
    case peerInsteadOfOrigin(URL, reason: String)
  }

  /// How a transfer ended.
  public struct Outcome: Sendable, Equatable {
    /// The final file.
    public var destination: String
    /// Its length in bytes.
    public var length: Int64
    /// Its SHA-256 as lowercase hex, when it was computed.
    public var sha256: String?
    /// Whether the file was already complete, so nothing was downloaded; ``check`` says how
    /// that is known.
    public var wasAlreadyComplete: Bool
    /// Body bytes received by this run (bytes fetched again after a restart count too).
    public var bytesReceived: Int64
    /// How the bytes of the file are known to be right.
    public var check: Check
    /// The SHA-256 of each 4 MiB chunk of the file (lowercase hex, in order; the last chunk
    /// may be shorter), computed as the bytes streamed; nil when not computed (no SHA-256
    /// computed, a slice, or a file complete from an earlier run).
    public var chunkSHA256: [String]?
    /// Where the bytes are when they went into a pack of a stream's small pieces instead of a
    /// file at ``destination`` (see ``Transfer/pack``); nil otherwise.
    var pack: TransferRecord.Pack?
    /// What each source served and why any was dropped, the primary first, when the file
    /// was fetched from several sources (``Configuration/mirrors``, or the duplicates its
    /// server named); empty otherwise.
    public var sources: [SourceReport] = []

    /// How the bytes of a finished file were checked. Only ``sha256`` means they were read
    /// and hashed by this run.
    public enum Check: String, Sendable, Equatable {
      /// This run computed the SHA-256 over every byte (and it matched the expected one,
      /// when one was given).
      case sha256
      /// Only the length was checked: no SHA-256 was expected or recorded.
      case length
      /// Already complete and not read again: its size, modification time and inode are
      /// those recorded when the download that checked it renamed it into place.
      case unchangedSinceDownload
    }

    /// Creates an outcome.
    public init(
      destination: String, length: Int64, sha256: String?, wasAlreadyComplete: Bool,
      bytesReceived: Int64, check: Check
    ) {
      self.destination = destination
      self.length = length
      self.sha256 = sha256
      self.wasAlreadyComplete = wasAlreadyComplete
      self.bytesReceived = bytesReceived
      self.check = check
    }
  }
}
