import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// What a part of a split live recording (``QueuedLivePart``) calls, from its download's
  /// task, when it reached its share: ``queueNextPart(_:after:options:)`` on the actor; the
  /// error that keeps the part from being recorded downloaded, nil once the next is queued.
  nonisolated func queuesNextPart(
    after record: ContentRecord, options: DownloadConfiguration.Stored
  ) -> @Sendable (NextLivePart) async -> Transfer.Error? {
    // Made only if it is called (a live part that ends): every queued file asks for one.
    let (directory, files) = (self.directory, self.files)
    return { [weak self] next in
      guard let self else {
        return Transfer.Error(
          .canceled, url: URL(string: record.url) ?? directory,
          destination: files.folder(id: record.id).path)
      }
      return await self.queueNextPart(next, after: record, options: options)
    }
  }

  /// Queues `next`, the part that follows content `record` (whose stored options are
  /// `options`) in its split recording: a new content, `downloading` at the end of the
  /// queue with `record`'s priority, title, request options and stream options, its place
  /// in the recording in its live options, its folder seeded where `record`'s recording
  /// stopped. Its id is `<recording>-<number>` (``QueuedLivePart/id(ofPart:recording:)``),
  /// or a fresh one when another content holds that id; when that content is this part
  /// already (queued before a kill), nothing changes.
  ///
  /// - Returns: The error that keeps `record` from being recorded downloaded (the next part
  ///   could not be seeded or recorded in the index), nil when the next part is queued.
  func queueNextPart(
    _ next: NextLivePart, after record: ContentRecord, options: DownloadConfiguration.Stored
  ) -> Transfer.Error? {
    let url = URL(string: record.url) ?? directory
    do throws(OfflineError) {
      guard let part = next.options.part else { return nil }
      var id = QueuedLivePart.id(ofPart: part.number, recording: part.recording)
      if let existing = try indexStep({ try index.contents.record(id: id) }) {
        if existing.url == record.url, let stored = try? DownloadConfiguration.stored(in: existing),
          QueuedLivePart.isPart(part.number, of: part.recording, options: stored.stream.live)
        {
          return nil
        }
        id = try unusedIDs(count: 1, besides: [id])[0]
      }
      do {
        try next.seed.write(in: files.folder(id: id), url: url)
      } catch {
        throw OfflineError(.transfer(error), contentID: record.id)
      }
      let kept = try secrets.loadKept(id: record.id)
      var stream = options.stream
      stream.live = next.options
      let configuration = DownloadConfiguration(
        priority: record.priority, stream: stream, connections: options.connections ?? .adaptive)
      let source = OfflineSource(
        url: url, id: id, title: record.title, metadata: record.metadata,
        requestOptions: kept?.options ?? RequestOptions(), urlExpiresAt: kept?.urlExpiresAt)
      var created = Set<String>()
      _ = try makeContents(for: [source], queueing: configuration, created: &created)
      return nil
    } catch {
      let destination = files.folder(id: record.id).path
      switch error.kind {
      case .transfer(let failure): return failure
      case .index(let failure):
        return Transfer.Error(.index(failure), url: url, destination: destination)
      default:
        return Transfer.Error(
          .invalidMedia("the next part of the live recording could not be queued: \(error)"),
          url: url, destination: destination)
      }
    }
  }

  /// Which part of a split live recording content `record` is, from its stored options; nil
  /// for any other content (or options this version cannot read).
  nonisolated func livePart(of record: ContentRecord) -> QueuedLivePart? {
    guard let stored = try? DownloadConfiguration.stored(in: record) else { return nil }
    return QueuedLivePart(id: record.id, live: stored.stream.live)
  }
}
