import OfflineStore

/// Where one offline content stands.
///
/// | from | call | to | event |
/// |---|---|---|---|
/// | `notDownloaded` | `download` | `downloading` | — |
/// | `downloading` | `suspend` | `suspended` | `suspended` |
/// | `suspended` | `resume` | `downloading` | `resumed` |
/// | `downloading`, `suspended` | `cancel` | `canceling`, then `notDownloaded` once every partial byte is deleted | `canceled` |
/// | `downloading` | (the transfer completes) | `downloaded` | `finished` |
/// | `downloading` | (a permanent failure, or retries used up) | `suspended`, with the last error | `error`, `suspended` |
/// | `downloading` | (a failure that discards the bytes: a checksum mismatch) | `notDownloaded`, with the last error | `error` |
/// | `downloaded` | `deleteOfflineData` | `notDownloaded` | — |
/// | `downloaded` | `verify`, `repair` (damage found, mended) | `downloaded` | `error` (kind `damaged`), `finished` |
///
/// Any other call in any state is rejected with ``OfflineError/Kind-swift.enum/invalidTransition(_:from:)``
/// and changes nothing. The index stores the state as its raw value (`ContentState` in OfflineStore).
public typealias OfflineState = ContentState

extension ContentState {
  /// The state in words, for messages: "not downloaded", "being canceled".
  public var phrase: String {
    switch self {
    case .notDownloaded: "not downloaded"
    case .downloading: "downloading"
    case .suspended: "suspended"
    case .downloaded: "downloaded"
    case .canceling: "being canceled"
    }
  }
}

/// A call of the API on a content.
public enum OfflineAction: String, Sendable, Equatable, CaseIterable {
  /// Start downloading.
  case download
  /// Pause, keeping partial data.
  case suspend
  /// Go on after a pause.
  case resume
  /// Stop and delete partial data.
  case cancel
  /// Delete the downloaded file.
  case delete
}

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

/// The transition table of ``OfflineState``, as a pure function.
public enum OfflineStateMachine {
  /// The state after `action` in `state`.
  ///
  /// - Throws: ``OfflineError`` (`invalidTransition`) when the table has no such row.
  public static func state(after action: OfflineAction, from state: OfflineState)
    throws(OfflineError) -> OfflineState
  {
    switch (state, action) {
    case (.notDownloaded, .download): return .downloading
    case (.downloading, .suspend): return .suspended
    case (.suspended, .resume): return .downloading
    case (.downloading, .cancel), (.suspended, .cancel): return .canceling
    case (.downloaded, .delete): return .notDownloaded
    default: throw OfflineError(.invalidTransition(action, from: state))
    }
  }

  /// The state after the engine's `event` in `state`; nil when the table has no such row
  /// (the state changed meanwhile, by a call or another process).
  static func state(after event: OfflineEngineEvent, from state: OfflineState) -> OfflineState? {
    switch (state, event) {
    case (.downloading, .finished): .downloaded
    case (.downloading, .failedKeepingData): .suspended
    case (.downloading, .failedDiscardingData): .notDownloaded
    case (.canceling, .cancelFinished): .notDownloaded
    default: nil
    }
  }
}
