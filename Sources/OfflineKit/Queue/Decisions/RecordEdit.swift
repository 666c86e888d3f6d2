import OfflineStore

/// One change a decision makes to a content's record besides its state, as a value, so a
/// test can read what a decision writes without a database.
enum RecordEdit: Sendable, Equatable {
  /// The queue position among contents of the same priority.
  case priority(Int)
  /// The checksum the download must have.
  case expectedSHA256(String?)
  /// The stored download configuration (``DownloadConfiguration/storedOptions``).
  case options(StoredJSON?)
  /// The bytes on disk.
  case bytes(Int64)
  /// The total, known for sure (`totalIsEstimate` false).
  case knownTotal(Int64)
  /// Why it is not moving; nil when it moves or does not download.
  case waitReason(WaitReason?)
  /// Failures in a row without progress.
  case retryCount(Int)
  /// The last error, in words and as its kind's name; nil clears it.
  case lastError(OfflineError?)
  /// Whether files of a cancel or a delete are still to be deleted.
  case pendingCleanup(Bool)
  /// The state, set outside the state table: only once a content's files are gone, when
  /// nothing is downloaded whatever the state said.
  case filesGone

  /// Applies the edit to `record`.
  func apply(to record: inout ContentRecord) {
    switch self {
    case .priority(let priority): record.priority = priority
    case .expectedSHA256(let sha256): record.expectedSHA256 = sha256
    case .options(let options): record.options = options
    case .bytes(let bytes): record.bytes = bytes
    case .knownTotal(let total):
      record.total = total
      record.totalIsEstimate = false
    case .waitReason(let reason): record.waitReason = reason?.stored
    case .retryCount(let count): record.retryCount = count
    case .lastError(let error):
      record.lastError = error?.description
      record.lastErrorKind = error?.kindName
    case .pendingCleanup(let pending): record.pendingCleanup = pending
    case .filesGone:
      record.state = .notDownloaded
      record.bytes = 0
      record.pendingCleanup = false
    }
  }

  static func == (lhs: RecordEdit, rhs: RecordEdit) -> Bool {
    switch (lhs, rhs) {
    case (.priority(let a), .priority(let b)): a == b
    case (.expectedSHA256(let a), .expectedSHA256(let b)): a == b
    case (.options(let a), .options(let b)): a == b
    case (.bytes(let a), .bytes(let b)): a == b
    case (.knownTotal(let a), .knownTotal(let b)): a == b
    case (.waitReason(let a), .waitReason(let b)): a == b
    case (.retryCount(let a), .retryCount(let b)): a == b
    case (.lastError(let a), .lastError(let b)):
      a?.description == b?.description && a?.kindName == b?.kindName
    case (.pendingCleanup(let a), .pendingCleanup(let b)): a == b
    case (.filesGone, .filesGone): true
    default: false
    }
  }
}

extension [RecordEdit] {
  /// Applies every edit to `record`, in order.
  func apply(to record: inout ContentRecord) {
    for edit in self { edit.apply(to: &record) }
  }
}
