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

  /// Fetches `key` from its URL, else from the same key at the stream's other sources in
  /// turn (``HLSPlan/KeyFile/alternates``), as a piece fails over (``StreamFailover``): a
  /// 403, 404, 410, 5xx or a host not reached gives way at once, the last source gets every
  /// retry.
  private func store(_ key: HLSPlan.KeyFile) async throws(Transfer.Error) {
    let target = folder.appending(path: key.local)
    let urls = [key.remote] + key.elsewhere
    for (position, url) in urls.enumerated() {
      let isLast = position == urls.count - 1
      do {
        let data = try await retry.run(
          url: url, destination: target.path,
          endsAtOnce: isLast ? { _ in false } : StreamFailover.movesOnAtOnce
        ) { () async throws(Transfer.Error) -> Data in
          try await session.data(
            from: url, limit: 1024, destination: target.path,
            maximumAttempts: isLast ? nil : 2)
        }
        try write(data, of: key, from: url, to: target)
        return
      } catch {
        guard !isLast, StreamFailover.triesNext(after: error), !Task.isCancelled else {
          throw error
        }
      }
    }
  }

  /// Checks `data`, fetched for `key` from `url`, and writes it to `target` (mode 0600).
  private func write(_ data: Data, of key: HLSPlan.KeyFile, from url: URL, to target: URL)
    throws(Transfer.Error)
  {
    guard data.count == 16 else {
      throw Transfer.Error(
        .invalidMedia(
          "the AES-128 key at \(url.redactedForDisplay) is \(data.count) bytes, not 16"),
        url: url, destination: target.path)
    }
    if let expected = expectedSHA256[key.local] {
      let hasher = SHA256()
      data.withUnsafeBytes { hasher.update($0) }
      let actual = hasher.finalizeHex()
      guard actual == expected else {
        throw Transfer.Error(
          .checksumMismatch(expected: expected, actual: actual), url: url,
          destination: target.path)
      }
    }
    try AtomicFile.write(data, to: target, mode: 0o600, url: url)
  }
}
