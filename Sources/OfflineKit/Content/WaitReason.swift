import Foundation
import OfflineStore

/// Why a content in `downloading` is not moving: queued, waiting for the network, for disk
/// space, for a retry at a time, or started and waiting for its first bytes.
public enum WaitReason: Sendable, Equatable {
  /// Behind the parallel limit.
  case queued
  /// No network: the host is unreachable from here. Goes on by itself when it is back.
  case network
  /// Not enough free disk space. Goes on by itself when there is.
  case storage
  /// A retry after a transient failure is due at this time.
  case retry(at: Date)
  /// Started, and no bytes have come yet (connecting, or waiting for the response).
  case starting

  /// The reason's name: `queued`, `network`, `storage`, `retry`, `starting` (what the
  /// index, `ls --json` and the service's JSON say).
  public var name: String { stored.name }

  /// When a retry is due; nil for the other reasons.
  public var retryAt: Date? {
    if case .retry(let at) = self { return at }
    return nil
  }
}

extension WaitReason {
  /// The reason a record of the index holds.
  package init(_ stored: ContentWaitReason) {
    switch stored {
    case .queued: self = .queued
    case .network: self = .network
    case .storage: self = .storage
    case .retry(let at): self = .retry(at: at)
    case .starting: self = .starting
    }
  }

  /// The reason as the index stores it.
  package var stored: ContentWaitReason {
    switch self {
    case .queued: .queued
    case .network: .network
    case .storage: .storage
    case .retry(let at): .retry(at: at)
    case .starting: .starting
    }
  }
}
