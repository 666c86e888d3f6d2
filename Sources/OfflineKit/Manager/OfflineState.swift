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
/// | `downloaded` | `deleteOfflineData` | `notDownloaded` | — |
///
/// Any other call in any state is rejected with ``OfflineError/Kind-swift.enum/invalidTransition(_:from:)``
/// and changes nothing.
public enum OfflineState: String, Sendable, Equatable, CaseIterable {
  /// Nothing on disk.
  case notDownloaded
  /// Queued or running; ``WaitReason`` says why it is not moving when it is not.
  case downloading
  /// Stopped with its partial data kept; `resume` goes on where it stopped.
  case suspended
  /// Complete and verified on disk.
  case downloaded
  /// Deleting partial data after a cancel; becomes `notDownloaded`.
  case canceling

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

/// What can happen to a content: the calls of the API, and what the engine reports.
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
  /// The transfer completed and verified (engine only).
  case finish
  /// The transfer failed for good, or its retries are used up (engine only).
  case fail
  /// The partial data of a cancel is gone (engine only).
  case finishCancel
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
    case (.canceling, .finishCancel): return .notDownloaded
    case (.downloading, .finish): return .downloaded
    case (.downloading, .fail): return .suspended
    case (.downloaded, .delete): return .notDownloaded
    default: throw OfflineError(.invalidTransition(action, from: state))
    }
  }
}
