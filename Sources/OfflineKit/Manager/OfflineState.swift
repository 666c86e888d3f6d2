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
/// Any other call in any state is rejected with an ``OfflineError`` with the code ``OfflineError/Code/invalidTransition``
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
