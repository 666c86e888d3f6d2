import Foundation

/// One offline content as the index stores it: a source URL, its place in the queue, its
/// state and progress. `OfflineKit` gives the fields their meaning; here they are data.
public struct ContentRecord: Sendable, Equatable {
  /// The stable identifier, chosen by the app or generated.
  public var id: String
  /// The source URL.
  public var url: String
  /// A title for people.
  public var title: String?
  /// The app's own data, opaque to OfflineKit (JSON by convention).
  public var metadata: String?
  /// The local file name, chosen by OfflineKit.
  public var fileName: String
  /// Whether the file lives in the store's shared folder of single files (`files/<file
  /// name>`) rather than in a folder of the content's own (`content/<id>/<file name>`, the
  /// layout of streams, of contents whose name another content's file had, and of every
  /// content made before the shared folder existed). No two contents with a flat file share
  /// a ``fileName`` (compared without case): ``ContentTable/insert(_:)`` gives the later one
  /// a folder.
  public var flatFile: Bool
  /// The state.
  public var state: ContentState
  /// Higher runs first; equal priorities run in ``sequence`` order.
  public var priority: Int
  /// The position in the queue: first added, first run.
  public var sequence: Int64
  /// Bytes on disk at the last progress report.
  public var bytes: Int64
  /// The total length, when known or estimated.
  public var total: Int64?
  /// Whether ``total`` is an estimate.
  public var totalIsEstimate: Bool
  /// The SHA-256 the file must have, as lowercase hex.
  public var expectedSHA256: String?
  /// How to download it (for a stream: which variant and renditions), as OfflineKit
  /// encodes it.
  public var options: StoredJSON?
  /// The last error, as a sentence for people.
  public var lastError: String?
  /// The kind of the last error, for programs.
  public var lastErrorKind: String?
  /// Why a download is not moving (for a retry, with its time), nil when it moves.
  public var waitReason: ContentWaitReason?
  /// Failed attempts in a row without progress.
  public var retryCount: Int
  /// An intent recorded before file operations: the content's files are to be deleted. Set in
  /// the same transaction as the state change, cleared once the files are gone.
  public var pendingCleanup: Bool
  /// When the content was added.
  public var createdAt: Date
  /// When the record last changed.
  public var updatedAt: Date

  /// Creates a record.
  public init(
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
