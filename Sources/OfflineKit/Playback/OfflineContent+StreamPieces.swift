import Foundation
import OfflineLocks
import OfflineStore

/// Where the bytes of one piece of a stream (a segment, an init section) are on disk: a file
/// of its own, or a region of a pack.
package struct PieceBytes: Sendable, Equatable {
  /// The absolute path of the file that holds them.
  package var path: String
  /// Where they start in it.
  package var offset: Int64
  /// How many there are.
  package var length: Int64
  /// Whether they are a region of a pack rather than a whole file.
  package var isRegion: Bool
}

/// Where a piece of a stream can be read from: on disk whole, or arriving.
package enum PieceSource: Sendable {
  /// The piece is on disk, whole.
  case onDisk(PieceBytes)
  /// The running download is fetching the piece and some of its bytes are on disk: read
  /// them as they arrive.
  case arriving(ArrivingPiece)
}

extension OfflineContent {
  /// Where piece `local` (its path inside the stream's folder, as the read-through playlist
  /// `index-through.m3u8` names it) of this stream is on disk, waiting for it when it is
  /// not there yet.
  ///
  /// A piece on disk is found at once: the running download shows its pieces as they land,
  /// the journal those of earlier runs. With `restrictedToAssetCache`, that is all: nil when
  /// it is not on disk. Without, a piece that the running download plans is asked of it,
  /// which fetches it next, ahead of the queue (``StreamPlayback``), and this waits up to
  /// `patience` for it to land, or to be arriving: once its length is known and its first
  /// bytes are on disk, it is handed over to be read as the rest arrives
  /// (``PieceSource/arriving(_:)``). Nil when neither came in time (or the download plans
  /// no such piece). A stream queued behind others starts at once, beside the parallel limit; a paused one
  /// fetches the pieces players ask for and stays paused (a playback run, which ends once no
  /// player asked for ten seconds). Only in the process that works the queue.
  ///
  /// - Throws: ``OfflineError``: `notPlayable` for a content that is not a stream downloaded,
  ///   downloading or suspended; `unknownContent`, `index`.
  package func piece(
    _ local: String, restrictedToAssetCache: Bool, patience: Duration
  ) async throws(OfflineError) -> PieceSource? {
    let current = try await snapshot
    let entry = current.fileURL.lastPathComponent
    guard [.downloaded, .downloading, .suspended].contains(current.state),
      entry == "index.m3u8" || entry == "index.mpd"
    else { throw OfflineError(.notPlayable(current.state), contentID: id) }
    let folder = current.fileURL.deletingLastPathComponent().path
    let manager = self.manager
    let trustsPacks = current.state == .downloaded
    let playbacks = manager.streamPlaybacks
    let playback = playbacks.playback(of: id)
    defer { playbacks.forgetIfIdle(id) }
    func found() -> PieceBytes? {
      if let location = playback.location(of: local) {
        return PieceBytes(at: location, in: folder)
      }
      return manager.storedPiece(local, in: folder, trustingPacks: trustsPacks)
    }
    func arriving() -> ArrivingPiece? {
      guard let flight = playback.flight(of: local), let length = flight.length,
        (FileSteps.regularFileSize(flight.part) ?? 0) > 0
      else { return nil }
      // Renamed into place since, it is found on disk on the next look.
      let descriptor = open(flight.part, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
      guard descriptor >= 0 else { return nil }
      return ArrivingPiece(
        local, flight: flight, length: length, descriptor: descriptor, playback: playback)
    }
    if let bytes = found() { return .onDisk(bytes) }
    guard !restrictedToAssetCache else { return nil }
    if let piece = arriving() { return .arriving(piece) }
    let changed = Locked<CheckedContinuation<Void, Never>?>(nil)
    let wake: @Sendable () -> Void = { changed.withLock { $0.take() }?.resume() }
    let token = playback.addWaker(wake)
    defer { playback.removeWaker(token) }
    let clock = ContinuousClock()
    let deadline = clock.now + patience
    let launches = PlaybackLaunches(manager: manager, contentID: id)
    while clock.now < deadline, !Task.isCancelled {
      if !playback.isRunning {
        launches.ask()  // a stream queued behind others starts now, a paused one for players
      } else {
        guard playback.isPlanned(local) else { return found().map(PieceSource.onDisk) }  // none
        playback.want(local)
      }
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          changed.withLock { $0 = continuation }
          // A landing between the look and the wait is not lost: looked at again here.
          if playback.location(of: local) != nil { wake() }
          // The journal of a run in another process tells nobody: looked at again soon.
          Task {
            try? await Task.sleep(for: .milliseconds(200))
            wake()
          }
        }
      } onCancel: {
        wake()
      }
      if let bytes = found() { return .onDisk(bytes) }
      if let piece = arriving() { return .arriving(piece) }
    }
    return nil
  }
}

extension OfflineContent {
  /// Starts the content now when it is `downloading` and waits in the queue (behind the
  /// parallel limit, say), beside the limit: a player waits for it. Nothing otherwise, or
  /// when this process does not work the queue.
  package func startForPlayback() async {
    await manager.launchForPlayback(id)
  }
}

extension PieceBytes {
  /// The bytes of a piece at `location` inside `folder`, when they are there.
  init?(at location: StreamPlayback.Location, in folder: String) {
    switch location {
    case .file(let local):
      let path = folder + "/" + local
      guard let size = FileSteps.regularFileSize(path) else { return nil }
      self.init(path: path, offset: 0, length: size, isRegion: false)
    case .packed(let region):
      let path = folder + "/" + region.pack
      guard let size = FileSteps.regularFileSize(path), region.offset + region.length <= size
      else { return nil }
      self.init(path: path, offset: region.offset, length: region.length, isRegion: true)
    }
  }
}

extension OfflineManager {
  /// Where the journal says piece `local` of the stream in `folder` is on disk: its record
  /// complete, and its bytes there (a file of that length, or a pack long enough). A region
  /// of a pack is trusted only when it was written in this boot (a stream's pieces are
  /// synced once, at its end) unless `trustingPacks` (the stream is downloaded: synced).
  nonisolated func storedPiece(_ local: String, in folder: String, trustingPacks: Bool)
    -> PieceBytes?
  {
    let destination = folder + "/" + local
    guard let record = (try? index.transfers.record(forDestination: destination)) ?? nil,
      record.phase == .complete, let length = record.totalLength
    else { return nil }
    if let pack = record.pack {
      guard trustingPacks || record.bootID == BootIdentity.current,
        let size = FileSteps.regularFileSize(pack.path), pack.offset + length <= size
      else { return nil }
      return PieceBytes(path: pack.path, offset: pack.offset, length: length, isRegion: true)
    }
    guard FileSteps.regularFileSize(destination) == length else { return nil }
    return PieceBytes(path: destination, offset: 0, length: length, isRegion: false)
  }
}
