import Foundation
import OfflineHTTP
import OfflineLocks

/// The playlists or MPD a player opens while a stream downloads, from the pieces on disk: a
/// value with no I/O, which ``GrowingWriter`` writes.
protocol GrowingFiles: Sendable {
  /// The file whose presence says a run wrote them (a player may be reading them).
  var entry: String { get }
  /// The files for `landing`; `ended` when the run has stopped, so nothing more comes
  /// until another starts.
  func files(for landing: PieceLanding, ended: Bool) -> [GrowingFile]
  /// Every piece: the landing of a download that finished.
  var complete: Set<String> { get }
  /// The files whose text does not depend on the landing: written once a run.
  var unchanging: Set<String> { get }
}

/// One playlist or MPD to write, by its path inside the content folder.
struct GrowingFile: Sendable, Equatable {
  var local: String
  var text: String
}

/// Writes the growing playlists or MPD of a running stream download (``GrowingFiles``,
/// ``HLSGrowingPlaylists`` and ``DASHGrowingManifest``): at most once per ``interval``
/// while pieces land, what landed last when the run stops (ended), and the ordinary ones when
/// it completes.
///
/// Each playlist is replaced atomically (a temporary file, then a rename), so a player never
/// reads half of one; without an fsync, because they are written again from the journal by
/// the next run and the finished ones are the offline playlists'. A write that fails is
/// skipped: the download goes on, and the next write (or the next run's) brings them up to
/// date.
final class GrowingWriter: Sendable {
  /// The shortest time between two writes while the run goes: players reload a growing
  /// playlist about once a target duration.
  static let interval: Duration = .seconds(1)

  private struct State {
    /// What landed last; nil until the run said (its pieces had not started).
    var latest: PieceLanding?
    var written: PieceLanding?
    var writtenAt: ContinuousClock.Instant?
    /// The ``GrowingFiles/unchanging`` files this run wrote.
    var writtenOnce: Set<String> = []
  }

  private let folder: URL
  private let playlists: any GrowingFiles
  private let clock: any Timekeeping
  private let state = Locked(State())

  /// A writer of `playlists` into `folder`, pacing its writes by `clock`: the first comes
  /// an ``interval`` after the run starts, so a stream fetched in less costs none (the
  /// playlists an earlier run wrote stay until then), or at once when `writesAtOnce` (a run
  /// for players, which may fetch nothing until they open the playlists).
  init(
    folder: URL, playlists: any GrowingFiles, clock: any Timekeeping, writesAtOnce: Bool = false
  ) {
    self.folder = folder
    self.playlists = playlists
    self.clock = clock
    if !writesAtOnce { state.withLock { $0.writtenAt = clock.instant } }
  }

  /// The pieces on disk are now `landing`: written when ``interval`` has passed since the
  /// last write.
  func didLand(_ landing: PieceLanding) {
    let now = clock.instant
    let due = state.withLock { state in
      state.latest = landing
      guard landing != state.written else { return false }
      if let at = state.writtenAt, at.duration(to: now) < Self.interval { return false }
      state.written = landing
      state.writtenAt = now
      return true
    }
    if due { write(landing) }
  }

  /// Writes what landed last, marked ended: the run stopped without completing. Nothing
  /// when its pieces never started: the playlists an earlier run wrote stay.
  func flush() {
    guard let latest = state.withLock({ $0.latest }) else { return }
    write(latest, ended: true)
  }

  /// Writes the playlists of the complete stream, its `packed` pieces addressed in their
  /// packs: the growing playlists become the ordinary ones, with `EXT-X-ENDLIST`. Only when
  /// a run wrote growing ones: a player may be reloading them.
  func complete(packed: [String: PieceRunner.PackedPiece]) {
    let entry = folder.appending(path: playlists.entry).path
    guard FileManager.default.fileExists(atPath: entry) else { return }
    write(PieceLanding(landed: playlists.complete, packed: packed))
  }

  private func write(_ landing: PieceLanding, ended: Bool = false) {
    let unchanging = playlists.unchanging
    let writtenOnce = state.withLock { $0.writtenOnce }
    for file in playlists.files(for: landing, ended: ended)
    where !writtenOnce.contains(file.local) {
      let target = folder.appending(path: file.local)
      // Skipped on failure: see the type's comment.
      guard
        (try? AtomicFile.write(
          Data(file.text.utf8), to: target, mode: ReadableFileMode.mode(for: file.text),
          url: target, durably: false)) != nil,
        unchanging.contains(file.local)
      else { continue }
      state.withLock { _ = $0.writtenOnce.insert(file.local) }
    }
  }
}
