import Foundation

/// The keys of an HLS content: fetched once each, checked to be 16 bytes, stored with mode
/// 0600 in the content's folder for offline playback.
struct HLSKeyStore: Sendable {
  let folder: URL
  let fetch: MemoryFetch
  /// A key is a piece: a refusal or a failed connection is tried again.
  let retry: HLSPieceRetry

  /// Fetches the keys not yet on disk; returns the bytes written.
  func fetchMissing(_ keys: [HLSPlan.KeyFile]) async throws(Transfer.Error) -> Int64 {
    var written: Int64 = 0
    for key in keys where FileSteps.regularFileSize(folder.appending(path: key.local).path) != 16 {
      try await store(key)
      written += 16
    }
    return written
  }

  /// Fetches every key again, replacing the stored ones; returns how many.
  func fetchAll(_ keys: [HLSPlan.KeyFile]) async throws(Transfer.Error) -> Int {
    for key in keys { try await store(key) }
    return keys.count
  }

  private func store(_ key: HLSPlan.KeyFile) async throws(Transfer.Error) {
    let target = folder.appending(path: key.local)
    let data = try await retry.run(url: key.remote, destination: target.path) {
      () async throws(Transfer.Error) -> Data in
      try await fetch.data(from: key.remote, limit: 1024, destination: target.path)
    }
    guard data.count == 16 else {
      throw Transfer.Error(
        .invalidMedia(
          "the AES-128 key at \(key.remote.redactedForDisplay) is \(data.count) bytes, not 16"),
        url: key.remote, destination: target.path)
    }
    try AtomicFile.write(data, to: target, mode: 0o600, url: key.remote)
  }
}
