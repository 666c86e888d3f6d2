import OfflineStore

/// What the engine reports about a content: never a call of the API.
enum OfflineEngineEvent: Sendable, Equatable, CaseIterable {
  /// The transfer completed and verified.
  case finished
  /// The transfer failed for good, or its retries are used up; its bytes are kept.
  case failedKeepingData
  /// The transfer failed and threw its bytes away (a checksum mismatch): nothing is left.
  case failedDiscardingData
  /// The partial data of a cancel is gone.
  case cancelFinished
}
