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
/// | `downloaded` | `verify`, `repair` (damage found, mended) | `downloaded` | `error` (code `damaged`), `finished` |
///
/// Any other call in any state is rejected with an ``OfflineError`` with the code
/// ``OfflineError/Code/invalidTransition`` and changes nothing. The raw values are what the
/// index stores (OfflineStore's `ContentState`), so they never change.
public enum OfflineState: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
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

extension OfflineState {
  /// The state a record of the index holds.
  package init(_ stored: ContentState) {
    switch stored {
    case .notDownloaded: self = .notDownloaded
    case .downloading: self = .downloading
    case .suspended: self = .suspended
    case .downloaded: self = .downloaded
    case .canceling: self = .canceling
    }
  }

  /// The state as the index stores it.
  package var stored: ContentState {
    switch self {
    case .notDownloaded: .notDownloaded
    case .downloading: .downloading
    case .suspended: .suspended
    case .downloaded: .downloaded
    case .canceling: .canceling
    }
  }
}

extension ContentRecord {
  /// The record's state, as OfflineKit names it.
  var offlineState: OfflineState { OfflineState(state) }
}
