import OfflineStore

/// The transition table of ``OfflineState``, as a pure function.
package enum OfflineStateMachine {
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
