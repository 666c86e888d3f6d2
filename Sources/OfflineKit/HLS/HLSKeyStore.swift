import Foundation

/// The keys of an HLS content: fetched once each, checked to be 16 bytes, stored with mode
/// 0600 in the content's folder for offline playback.
struct HLSKeyStore: Sendable {
  let folder: URL
  /// The stream's session.
  let session: ContentSession
  /// A key is a piece: a refusal or a failed connection is tried again.
  let retry: PieceRetryPolicy
  /// The SHA-256 each key must have, by its local path (a repair's: see
  /// ``StreamDownloading/expectedPieceSHA256``): a key on disk with other bytes is fetched
  /// again, and one fetched with other bytes is not written.
  var expectedSHA256: [String: String] = [:]

  /// Fetches the keys not yet on disk (or, when their SHA-256 is expected, not with those
  /// bytes); returns the bytes written.
  func fetchMissing(_ keys: [HLSPlan.KeyFile]) async throws(Transfer.Error) -> Int64 {
    var written: Int64 = 0
    for key in keys where !isStored(key) {
      try await store(key)
      written += 16
    }
    return written
  }

  /// Whether `key` is on disk: 16 bytes, and the bytes expected of it when that is known.
  private func isStored(_ key: HLSPlan.KeyFile) -> Bool {
    let path = folder.appending(path: key.local).path
    guard FileSteps.regularFileSize(path) == 16 else { return false }
    guard let expected = expectedSHA256[key.local] else { return true }
    return PieceHashing.hash(path: path, length: 16)?.sha256 == expected
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
      try await session.data(from: key.remote, limit: 1024, destination: target.path)
    }
    guard data.count == 16 else {
      throw Transfer.Error(
        .invalidMedia(
          "the AES-128 key at \(key.remote.redactedForDisplay) is \(data.count) bytes, not 16"),
        url: key.remote, destination: target.path)
    }
    if let expected = expectedSHA256[key.local] {
      let hasher = SHA256()
      data.withUnsafeBytes { hasher.update($0) }
      let actual = hasher.finalizeHex()
      guard actual == expected else {
        throw Transfer.Error(
          .checksumMismatch(expected: expected, actual: actual), url: key.remote,
          destination: target.path)
      }
    }
    try AtomicFile.write(data, to: target, mode: 0o600, url: key.remote)
  }
}
