import Foundation
import HLSPlaylist

/// The init sections (`EXT-X-MAP`) and AES-128 keys of a live recording: named when the
/// first segment that needs one is asked for (the names kept in ``LiveRecordState``, so a
/// rerun finds them), and fetched once each, before the first segment that needs it, by
/// whichever segment fetch comes first; the others wait for that fetch.
///
/// A fetch that fails is forgotten, so the next segment that needs the file tries again;
/// the segment whose fetch it was fails (and is ledgered) with its error.
actor LiveSideFiles {
  private var fetches: [String: Task<Void, any Error>] = [:]

  /// Runs `fetch` of `remote` into `local` unless it ran and succeeded (or is running:
  /// then waits for it).
  func ensure(
    _ local: String, from remote: URL,
    fetch: @escaping @Sendable () async throws(Transfer.Error) -> Void
  ) async throws(Transfer.Error) {
    let task =
      fetches[local]
      ?? Task { () async throws -> Void in try await fetch() }
    fetches[local] = task
    do {
      try await task.value
    } catch {
      if fetches[local] == task { fetches[local] = nil }
      throw error as? Transfer.Error
        ?? Transfer.Error(.invalidMedia("\(error)"), url: remote, destination: local)
    }
  }
}

extension LiveRecordState {
  /// The local name of the init section `map` of a segment of the playlist at `base`:
  /// `init<N>.<ext>` in order of first use, named now when it is new.
  mutating func initSection(for map: MapSection, base: URL) -> (local: String, remote: URL)? {
    guard let remote = try? HLSURI.resolve(map.uri, against: base, what: "EXT-X-MAP") else {
      return nil
    }
    let identity =
      remote.absoluteString + (map.byteRange.map { "#\($0.offset)+\($0.length)" } ?? "")
    var names = initSections ?? [:]
    let local =
      names[identity] ?? "init\(names.count)." + HLSURI.initSectionExtension(of: remote)
    names[identity] = local
    initSections = names
    return (local, remote)
  }

  /// The local name of the AES-128 key `key` of a segment of the playlist at `base`: the
  /// VOD path's names (``HLSKeyNames``) in order of first use, named now when it is new.
  mutating func keyFile(for key: Key, base: URL) -> HLSPlan.KeyFile? {
    guard let uri = key.uri,
      let remote = try? HLSURI.resolve(uri, against: base, what: "key")
    else { return nil }
    var names = keys ?? [:]
    let local = names[remote.absoluteString] ?? HLSKeyNames.local(index: names.count)
    names[remote.absoluteString] = local
    keys = names
    return HLSPlan.KeyFile(remote: remote, local: local)
  }

  /// Every key named so far, for the stream's `offline.json`.
  var keyFiles: [HLSPlan.KeyFile] {
    (keys ?? [:]).compactMap { remote, local in
      URL(string: remote).map { HLSPlan.KeyFile(remote: $0, local: local) }
    }.sorted { $0.local < $1.local }
  }
}

extension LiveSegmentFetch {
  /// The AES-128 key the segment is encrypted with; nil when it is clear.
  ///
  /// - Throws: ``Transfer/Error`` `invalidMedia` for a key that cannot be recorded: another
  ///   method (SAMPLE-AES), or only keys of a DRM `KEYFORMAT`.
  func aes128Key(base: URL) throws(Transfer.Error) -> Key? {
    try Self.aes128Key(of: keys, what: "segment \(sequence)", base: base)
  }

  /// The AES-128 key the segment's init section (`EXT-X-MAP`) is encrypted with: the key in
  /// effect where the live playlist declares the section (RFC 8216 §4.3.2.5); nil when the
  /// section is clear or there is none.
  ///
  /// - Throws: ``Transfer/Error`` `invalidMedia` for a key that cannot be recorded (as
  ///   ``aes128Key(base:)``), or an encrypted section without the `IV` attribute that
  ///   §4.3.2.5 requires: the IV a player would guess changes as the window slides.
  func mapAES128Key(base: URL) throws(Transfer.Error) -> Key? {
    guard let map,
      let key = try Self.aes128Key(
        of: map.keys, what: "the init section of segment \(sequence)", base: base)
    else { return nil }
    guard key.iv != nil else {
      throw Transfer.Error(
        .invalidMedia(
          "the init section of segment \(sequence) is encrypted without the IV attribute"
            + " RFC 8216 section 4.3.2.5 requires"), url: base, destination: "")
    }
    return key
  }

  /// The AES-128 key among `keys` (those in effect for `what`); nil when none encrypts.
  private static func aes128Key(of keys: [Key], what: String, base: URL) throws(Transfer.Error)
    -> Key?
  {
    let encrypted = keys.filter { $0.method != .none }
    guard !encrypted.isEmpty else { return nil }
    if let key = encrypted.first(where: { $0.method == .aes128 && $0.isIdentityFormat }) {
      return key
    }
    throw Transfer.Error(
      .invalidMedia(
        "\(what) is encrypted with \(encrypted.map(\.method.rawValue).joined(separator: ", "))"
          + " keys; only AES-128 keys can be recorded from a live stream"),
      url: base, destination: "")
  }
}
