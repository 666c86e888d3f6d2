import Foundation

/// One offline content as the index stores it: a source URL, its place in the queue, its
/// state and progress. `OfflineKit` gives the fields their meaning; here they are data.
package struct ContentRecord: Sendable, Equatable {
  /// The stable identifier, chosen by the app or generated.
  package var id: String
  /// The source URL.
  package var url: String
  /// A title for people.
  package var title: String?
  /// The app's own data, opaque to OfflineKit (JSON by convention).
  package var metadata: String?
  /// The local file name, chosen by OfflineKit.
  package var fileName: String
  /// Whether the file lives in the store's shared folder of single files (`files/<file
  /// name>`) rather than in a folder of the content's own (`content/<id>/<file name>`, the
  /// layout of streams, of contents whose name another content's file had, and of every
  /// content made before the shared folder existed). No two contents with a flat file share
  /// a ``fileName`` (compared without case): ``ContentTable/insert(_:)`` gives the later one
  /// a folder.
  package var flatFile: Bool
  /// Whether piece checks are kept for the file (``ContentTable/pieceChecks(id:)``), so a
  /// launch reads them only then.
  package var hasPieceChecks = false
  /// Whether what each source served is kept (``ContentTable/sourceReports(id:)``), so a
  /// snapshot reads it only then; set by ``ContentTable/setSourceReports(_:id:)``.
  package var hasSourceReports = false
  /// The state.
  package var state: ContentState
  /// Higher runs first; equal priorities run in ``sequence`` order.
  package var priority: Int
  /// The position in the queue: first added, first run.
  package var sequence: Int64
  /// Bytes on disk at the last progress report.
  package var bytes: Int64
  /// The total length, when known or estimated.
  package var total: Int64?
  /// Whether ``total`` is an estimate.
  package var totalIsEstimate: Bool
  /// The SHA-256 the file must have, as lowercase hex.
  package var expectedSHA256: String?
  /// How to download it (for a stream: which variant and renditions), as OfflineKit
  /// encodes it.
  package var options: StoredJSON?
  /// The last error, as a sentence for people.
  package var lastError: String?
  /// The kind of the last error, for programs.
  package var lastErrorKind: String?
  /// Why a download is not moving (for a retry, with its time), nil when it moves.
  package var waitReason: ContentWaitReason?
  /// Failed attempts in a row without progress.
  package var retryCount: Int
  /// An intent recorded before file operations: the content's files are to be deleted. Set in
  /// the same transaction as the state change, cleared once the files are gone.
  package var pendingCleanup: Bool
  /// When the content was added.
  package var createdAt: Date
  /// When the record last changed.
  package var updatedAt: Date

  /// Creates a record.
  package init(
    id: String, url: String, title: String? = nil, metadata: String? = nil, fileName: String,
    state: ContentState, priority: Int = 0, sequence: Int64 = 0, bytes: Int64 = 0,
    total: Int64? = nil,
    totalIsEstimate: Bool = false, expectedSHA256: String? = nil, options: StoredJSON? = nil,
    lastError: String? = nil,
    lastErrorKind: String? = nil, waitReason: ContentWaitReason? = nil, retryCount: Int = 0,
    pendingCleanup: Bool = false, flatFile: Bool = false, createdAt: Date = Date(),
    updatedAt: Date = Date()
  ) {
    self.id = id
    self.url = url
    self.title = title
    self.metadata = metadata
    self.fileName = fileName
    self.flatFile = flatFile
    self.state = state
    self.priority = priority
    self.sequence = sequence
    self.bytes = bytes
    self.total = total
    self.totalIsEstimate = totalIsEstimate
    self.expectedSHA256 = expectedSHA256
    self.options = options
    self.lastError = lastError
    self.lastErrorKind = lastErrorKind
    self.waitReason = waitReason
    self.retryCount = retryCount
    self.pendingCleanup = pendingCleanup
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}
