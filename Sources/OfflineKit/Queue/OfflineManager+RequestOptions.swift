import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// Where the request options of the store's contents are kept (`secrets/` in the store).
  nonisolated var secrets: SecretStore { SecretStore(directory: directory) }

  /// What is kept for content `record` to fetch it, in one read of the store: its request
  /// options (the default options when none were given), its mirrors
  /// (``OfflineSource/mirrors``) and its peers (``OfflineSource/peers``). Read each time, so what another process gave is used.
  /// The options' secrets belong to the content's URL (the one given, or the latest
  /// `setURL`): every request of the content, repairs and remote checks included, sends
  /// them only to its origin and the trusted ones, whatever origin a piece's URL names.
  ///
  /// - Throws: ``OfflineError`` (`index`) when what is kept cannot be read; a download never
  ///   goes ahead without it.
  func keptFetch(of record: ContentRecord) throws(OfflineError) -> (
    options: RequestOptions, mirrors: [URL], peers: [URL]
  ) {
    guard let kept = try secrets.loadKept(id: record.id) else {
      return (RequestOptions(), [], [])
    }
    // Nothing to scope in the default options: each session scopes its own URL.
    guard kept.options != RequestOptions(), let url = URL(string: record.url) else {
      return (kept.options, kept.mirrors, kept.peers)
    }
    return (kept.options.scopingSecrets(to: url), kept.mirrors, kept.peers)
  }

  /// Keeps the options of `sources` for their contents, `ids` in the same order, before
  /// their records are written (so a runner in another process never starts one without
  /// them). A source with the default options leaves what an earlier call kept; other
  /// options replace it.
  func keepRequestOptions(of sources: [OfflineSource], ids: [String]) throws(OfflineError) {
    for (source, id) in zip(sources, ids)
    where source.requestOptions != RequestOptions() || source.urlExpiresAt != nil
      || !source.mirrors.isEmpty || !source.peers.isEmpty
    {
      let kept = try? secrets.loadKept(id: id)
      let options =
        source.requestOptions != RequestOptions()
        ? source.requestOptions : kept?.options ?? RequestOptions()
      try secrets.save(
        options, urlExpiresAt: source.urlExpiresAt ?? kept?.urlExpiresAt,
        mirrors: source.mirrors.isEmpty ? kept?.mirrors ?? [] : source.mirrors,
        peers: source.peers.isEmpty ? kept?.peers ?? [] : source.peers, id: id)
    }
  }

  /// The expiry the app gave for content `id`'s URL, nil when none (or it cannot be read).
  func urlExpiry(of id: String) -> Date? {
    (try? secrets.loadKept(id: id))??.urlExpiresAt
  }

  /// Keeps `expiry` (nil: none) for content `id`'s URL, its options unchanged.
  func setURLExpiry(_ expiry: Date?, of id: String) throws(OfflineError) {
    let kept = try secrets.loadKept(id: id)
    guard kept?.urlExpiresAt != expiry else { return }
    try secrets.save(
      kept?.options ?? RequestOptions(), urlExpiresAt: expiry, mirrors: kept?.mirrors ?? [],
      peers: kept?.peers ?? [], id: id)
  }
}
