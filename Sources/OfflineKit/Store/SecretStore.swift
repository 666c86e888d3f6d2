import Foundation
import OfflineHTTP
import OfflineStore

/// The request options of a store's contents, kept so that a `run` in another process (after
/// a reboot) sends what `add` was given: one file per content, `secrets/<id>.json` in the
/// store, the folder mode 0700 and each file 0600, written atomically and durably.
///
/// The whole ``RequestOptions`` value lives here, secrets (`Authorization`, `Cookie`,
/// passwords, proxy credentials, headers named secret) and the rest alike, so the index,
/// the manifests, the offline playlists, events and listings never hold a secret, and the
/// options survive an index rebuilt from the manifests. Contents without options have no
/// file.
struct SecretStore: Sendable {
  /// The folder's name inside the store.
  static let folderName = "secrets"

  /// The folder of the files.
  let folder: URL
  /// The path of ``folder``, made once: each launch of a queued file looks for its file.
  private let folderPath: String

  /// The secrets folder of the store in `directory`.
  init(directory: URL) {
    folder = directory.appending(path: Self.folderName, directoryHint: .isDirectory)
    folderPath = folder.path
  }

  /// The file of content `id`.
  func file(id: String) -> URL { folder.appending(path: "\(id).json") }

  /// The path of ``file(id:)``, joined as a string (as `URL` would join it) without
  /// parsing a `URL`.
  private func path(id: String) -> String { folderPath + "/" + id + ".json" }

  /// Keeps `options` (and the URL's expiry, if the app gave one, and its mirrors) for
  /// content `id`, replacing what was kept; the default options without an expiry or
  /// mirrors remove the file.
  ///
  /// - Throws: ``OfflineError`` (`index`, naming the file and never a value) when the folder
  ///   or the file cannot be written.
  func save(
    _ options: RequestOptions, urlExpiresAt: Date? = nil, mirrors: [URL] = [],
    peers: [URL] = [], id: String
  ) throws(OfflineError) {
    guard options != RequestOptions() || urlExpiresAt != nil || !mirrors.isEmpty || !peers.isEmpty
    else {
      remove(id: id)
      return
    }
    let target = file(id: id)
    try makeFolder()
    let data: Data
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      data = try encoder.encode(
        StoredRequestOptions(options, urlExpiresAt: urlExpiresAt, mirrors: mirrors, peers: peers))
    } catch {
      throw failure("cannot encode the request options", path: target.path, contentID: id)
    }
    let code = DurableFile.write(data, to: target)
    guard code == 0 else {
      throw failure(
        "cannot write the request options: \(String(cString: strerror(code)))",
        path: target.path, contentID: id)
    }
  }

  /// The options, the URL's expiry, the mirrors and the peers kept for content `id`, nil when none
  /// are.
  ///
  /// - Throws: ``OfflineError`` (`index`) when the file is there but cannot be read, is not
  ///   a regular file, or holds options this version does not know: never a silent default.
  func loadKept(id: String) throws(OfflineError) -> (
    options: RequestOptions, urlExpiresAt: Date?, mirrors: [URL], peers: [URL]
  )? {
    let target = path(id: id)
    guard DurableFile.kind(target) != .missing else { return nil }
    switch DurableFile.read(target, limit: 1 << 20) {
    case .failure(let problem):
      throw failure(
        "cannot read the request options: \(problem.reason)", path: target, contentID: id)
    case .success(let data):
      guard let stored = try? JSONDecoder().decode(StoredRequestOptions.self, from: data),
        let options = stored.requestOptions,
        let mirrors = Self.mirrors(stored.mirrors),
        let peers = Self.mirrors(stored.peers)
      else {
        throw failure(
          "the request options are not ones this version knows", path: target, contentID: id)
      }
      return (options, stored.urlExpiresAt, mirrors, peers)
    }
  }

  /// Mirrors as stored, read back; nil when one is not an http or https URL.
  private static func mirrors(_ texts: [String]?) -> [URL]? {
    var urls: [URL] = []
    for text in texts ?? [] {
      guard let url = URL(string: text), url.isHTTPWithHost else { return nil }
      urls.append(url)
    }
    return urls
  }

  /// Removes the options of content `id`, if any.
  func remove(id: String) {
    DurableFile.remove(file(id: id))
  }

  /// Makes the folder (0700) and its store folder; a folder there already is made 0700 too.
  private func makeFolder() throws(OfflineError) {
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw failure("cannot create the folder", path: folder.path, contentID: nil)
    }
    chmod(folder.path, 0o700)
  }

  private func failure(_ message: String, path: String, contentID: String?) -> OfflineError {
    OfflineError(.index(StoreError(code: 1, message: message, path: path)), contentID: contentID)
  }
}
