import Foundation

/// Whether the origin still serves the version of a content that was downloaded
/// (``OfflineContent/checkRemote()``): asked with `HEAD` requests, nothing downloaded.
public enum RemoteStatus: Sendable, Equatable {
  /// Every resource asked about has the validators and length recorded at download time.
  case upToDate
  /// At least one resource changed (other validators or length, or gone); `url` is the
  /// first one found, redacted.
  case changed(url: String)
}
