import Foundation
import OfflineHTTP
import OfflineStore

extension FileCache {
  /// Serves `key` the slow way, joining the load already running for it if there is one.
  func load(_ url: URL, key: CacheKey) async throws(FileCache.Error) -> Loaded<URL> {
    try CacheKey.validate(url)
    if let running = inFlight[key.hash] { return try await running.value.get() }
    let task = Task { () -> Outcome in
      let outcome = await self.fetch(url, key: key)
      self.inFlight[key.hash] = nil
      return outcome
    }
    inFlight[key.hash] = task
    return try await task.value.get()
  }

  /// One load: pinned content, a cached copy (revalidated when stale), else a download.
  private func fetch(_ url: URL, key: CacheKey) async -> Outcome {
    do throws(FileCache.Error) {
      let path = key.path(in: directoryPath)
      let entry = entry(for: key.hash)
      if let pinned = pinnedFile(for: url) {
        if entry != nil { discard(key.hash) }
        return .success(pinned)
      }
      if let entry {
        if CacheFiles.size(path) == entry.size {
          if !isStale(entry) {
            noteUse(key.hash)
            return .success(
              Loaded(value: URL(fileURLWithPath: path), source: .hit, size: entry.size))
          }
          return .success(try await revalidate(entry, url: url, key: key))
        }
        discard(key.hash)  // missing or damaged: a miss, not an error
      }
      return .success(try await download(url, key: key))
    } catch {
      return .failure(error)
    }
  }

  /// Downloads `url` through a ``Transfer`` into the entry's file and records the entry.
  func download(_ url: URL, key: CacheKey) async throws(FileCache.Error) -> Loaded<URL> {
    let path = key.path(in: directoryPath)
    let allowance = try room(for: nil)
    var behaviour = Transfer.Configuration(
      retry: configuration.retry, progressInterval: .milliseconds(50),
      replacesExistingFile: true, waitsForOtherWriter: true)
    behaviour.clock = configuration.clock
    let transfer = Transfer(
      url: url, destination: path, journal: index.transfers, transport: transport,
      configuration: behaviour, requestOptions: configuration.requestOptions)
    let watch = DownloadWatch(limit: allowance)
    let outcome: Transfer.Outcome
    switch await watch.run(transfer) {
    case .success(let result):
      outcome = result
    case .failure(let error):
      if let needed = watch.refusedLength {
        CacheFiles.remove(transfer.partPath)
        try? index.transfers.remove(destination: path)
        throw refusal(needed: needed)
      }
      throw error.isStorageFull
        ? Error(.outOfSpace(path: transfer.partPath)) : Error(.transfer(error))
    }
    let record = try? index.transfers.record(forDestination: path)
    try? index.transfers.remove(destination: path)
    let entry = CacheTable.Entry(
      key: key.hash, url: url.absoluteString, size: outcome.length, etag: record?.etag,
      lastModified: record?.lastModified, validatedAt: configuration.clock.now,
      lastUsedAt: configuration.clock.now)
    try store(entry)
    return Loaded(value: URL(fileURLWithPath: path), source: .downloaded, size: entry.size)
  }

  /// Asks the server whether a stale copy changed (RFC 9110, sections 13.1.2 and 13.1.3):
  /// a 304 refreshes it without a body, a 200 replaces it atomically, and no network at all
  /// serves the stale copy.
  private func revalidate(_ entry: CacheTable.Entry, url: URL, key: CacheKey)
    async throws(FileCache.Error) -> Loaded<URL>
  {
    let path = key.path(in: directoryPath)
    let stale = Loaded(value: URL(fileURLWithPath: path), source: .staleOffline, size: entry.size)
    guard entry.etag != nil || entry.lastModified != nil else {
      do {
        return try await download(url, key: key)
      } catch {
        if case .transfer(let failure) = error.kind, failure.isOffline {
          return servingStale(stale)
        }
        throw error
      }
    }
    let session = ContentSession(
      url: url, transport: transport, requestOptions: configuration.requestOptions,
      clock: configuration.clock)
    var request = session.request(url)
    if let etag = entry.etag { request.headers.add(name: "If-None-Match", value: etag) }
    if let date = entry.lastModified { request.headers.add(name: "If-Modified-Since", value: date) }
    let fetch = ConditionalFetch(temporaryPath: path + ".fetch", limit: try room(for: nil))
    let head: HTTPResponseHead
    do {
      head = try await session.perform(request, delegate: fetch)
    } catch {
      fetch.discard()
      if error.isOffline { return servingStale(stale) }
      if error.kind == .delegateFailed, let file = error.underlying as? TransferFileError {
        throw file.isOutOfSpace ? Error(.outOfSpace(path: fetch.temporaryPath)) : Error(.file(file))
      }
      throw Error(.network(error))
    }
    let validators = Validators(head)
    switch head.status {
    case 304:
      var refreshed = entry
      refreshed.validatedAt = configuration.clock.now
      refreshed.etag = validators.etag ?? entry.etag
      refreshed.lastModified = validators.lastModified ?? entry.lastModified
      try store(refreshed)
      noteUse(key.hash)
      return Loaded(value: stale.value, source: .revalidated, size: entry.size)
    case 200:
      if let needed = fetch.refusedLength {
        fetch.discard()
        throw refusal(needed: needed)
      }
      let size: Int64
      do {
        size = try fetch.finish(into: path, expectedLength: head.contentLength)
      } catch {
        fetch.discard()
        throw error.isOutOfSpace
          ? Error(.outOfSpace(path: fetch.temporaryPath)) : Error(.file(error))
      }
      try store(
        CacheTable.Entry(
          key: key.hash, url: url.absoluteString, size: size, etag: validators.etag,
          lastModified: validators.lastModified, validatedAt: configuration.clock.now,
          lastUsedAt: configuration.clock.now))
      return Loaded(value: stale.value, source: .downloaded, size: size)
    default:
      fetch.discard()
      if head.status == 404 || head.status == 410 { discard(key.hash) }
      throw Error(.status(head.status, url: url))
    }
  }

  private func servingStale(_ stale: Loaded<URL>) -> Loaded<URL> {
    if let hash = stale.value.pathComponents.last { noteUse(hash) }
    return stale
  }

  /// The file of the offline content downloaded from `url`, if one is: served as it is.
  private func pinnedFile(for url: URL) -> Loaded<URL>? {
    guard let record = try? index.contents.record(url: url.absoluteString),
      record.state == .downloaded, ContentFiles.isValidID(record.id)
    else { return nil }
    let file = ContentFiles(index: index, directory: store).file(of: record)
    guard let size = CacheFiles.size(file.path) else { return nil }
    return Loaded(value: file, source: .pinned, size: size)
  }

  /// Whether `entry` is older than the maximum age, now or at `now`.
  nonisolated func isStale(_ entry: CacheTable.Entry, now: Date? = nil) -> Bool {
    (now ?? configuration.clock.now) >= freshUntil(entry)
  }

  /// When `entry` stops being fresh. `validatedAt` is stored in whole milliseconds and may
  /// have been rounded up: one is taken off, so an entry is never fresh past its age (and a
  /// maximum age of 0 always revalidates).
  nonisolated func freshUntil(_ entry: CacheTable.Entry) -> Date {
    entry.validatedAt.addingTimeInterval(maximumAgeSeconds - 0.001)
  }
}

extension HTTPError {
  /// Whether the failure means the network is not there (OfflineKit's "offline").
  var isOffline: Bool {
    switch kind {
    case .cannotConnect, .cannotResolveHost, .connectionLost, .stalled: true
    default: false
    }
  }
}

extension Transfer.Error {
  /// Whether the disk is full: a file write failed with ENOSPC, or the index with
  /// `SQLITE_FULL`.
  var isStorageFull: Bool {
    if case .index(let error) = kind { return error.kind == .full }
    return isOutOfSpace
  }

  /// Whether the transfer failed because the network is not there.
  var isOffline: Bool {
    if case .network(let error) = kind { return error.isOffline }
    return false
  }
}
