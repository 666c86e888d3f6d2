import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// Where the request options of the store's contents are kept (`secrets/` in the store).
  nonisolated var secrets: SecretStore { SecretStore(directory: directory) }

  /// The request options kept for content `id`: the default options when none were given.
  /// Read from the store each time, so options given in another process are used.
  ///
  /// - Throws: ``OfflineError`` (`index`) when the kept options cannot be read; a download
  ///   never goes ahead without them.
  func storedRequestOptions(of id: String) throws(OfflineError) -> RequestOptions {
    let options = try secrets.load(id: id) ?? RequestOptions()
    requestOptions[id] = options == RequestOptions() ? nil : options
    return options
  }

  /// Keeps the options of `sources` for their contents, `ids` in the same order, before
  /// their records are written (so a runner in another process never starts one without
  /// them). A source with the default options leaves what an earlier call kept; other
  /// options replace it.
  func keepRequestOptions(of sources: [OfflineSource], ids: [String]) throws(OfflineError) {
    for (source, id) in zip(sources, ids) where source.requestOptions != RequestOptions() {
      try secrets.save(source.requestOptions, id: id)
      requestOptions[id] = source.requestOptions
    }
  }
}
