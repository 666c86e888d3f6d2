import Foundation
import OfflineLocks
import OfflineStore

/// Reads the file of a content while it downloads (or once it is downloaded), for a player:
/// the bytes on disk at once, and the bytes that are not yet there as they land.
///
/// A reader that is not restricted to what is on disk tells the download which byte it needs
/// next (``want(from:)``); a running download then fetches that region ahead of the rest,
/// over a connection of its own when the byte lies past what its requests in flight ask
/// for (a file's tail, where an MP4 without `faststart` keeps its `moov`, or a seek), and
/// goes on around it. Every byte it fetches is written into the download's own part file and
/// journal, so nothing a player pulled in is fetched twice, and a kill at any moment keeps
/// what landed.
///
/// ```swift
/// let reader = try await content.openFileReader(restrictedToAssetCache: false)
/// defer { reader.close() }
/// let head = try await reader.bytes(at: 0, count: 64 << 10)  // waits for them if needed
/// print(head.count)
/// ```
/// (`Examples/GuideSamples.swift` compiles it.)
///
/// Every member may be called from any thread. ``read(into:at:)`` and ``available(from:)``
/// never wait; ``bytes(at:count:)`` does, until the bytes land or the task is cancelled.
/// The handler given to ``onChange(_:)`` is called from the download's threads, often (after
/// each write while the reader waits): it should only wake whoever reads.
public final class OfflineFileReader: Sendable {
  /// The content read.
  public let contentID: String
  /// Whether only the bytes already on disk are read: no want reaches the download.
  public let isRestrictedToAssetCache: Bool

  private let destination: String
  private let manager: OfflineManager
  private let playback: FilePlayback
  private let token: Int
  /// The restarts of the download when the reader opened: a later one means the bytes
  /// changed under it.
  private let restartsAtOpen: Int
  /// Starts the content when it waits in the queue and the reader wants bytes.
  private let launches: PlaybackLaunches
  private struct State {
    var descriptor: Int32 = -1
    var closed = false
    /// What the journal said while nothing ran here, the playback's change count then, and when.
    var stored: (landed: LandedBytes, length: Int64?, changes: Int, at: ContinuousClock.Instant)?
    /// The file's length once known (it changes only when the download starts over, which
    /// ends the reading).
    var length: Int64?
  }
  private let state = Locked(State())

  init(
    contentID: String, destination: String, manager: OfflineManager, playback: FilePlayback,
    restricted: Bool
  ) {
    self.contentID = contentID
    self.destination = destination
    self.manager = manager
    self.playback = playback
    self.isRestrictedToAssetCache = restricted
    self.token = playback.addReader()
    self.restartsAtOpen = playback.restarts
    self.launches = PlaybackLaunches(manager: manager, contentID: contentID)
  }

  deinit { close() }

  /// The file's length, when known (the download's first response tells it).
  public var length: Int64? { view().length }

  /// How many bytes from `offset` on are on disk without a gap: 0 when the byte at `offset`
  /// is not.
  public func available(from offset: Int64) -> Int64 {
    view().landed.available(from: offset)
  }

  /// The bytes on disk, in all.
  public var bytesOnDisk: Int64 { view().landed.count }

  /// The runs of bytes on disk, in file order.
  public var runsOnDisk: [Range<Int64>] { view().landed.runs }

  /// Reads bytes on disk from `offset` into `buffer`, as many as fit and are there without a
  /// gap; 0 when the byte at `offset` is not on disk yet (or `offset` is the end). Never
  /// waits for the network.
  ///
  /// - Throws: ``OfflineError``: `originChanged` when the download started the file over
  ///   (the origin sent another version: what was read before belongs to the old one),
  ///   `file` when the file cannot be read, `closed` after ``close()``.
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
    throws(OfflineError) -> Int
  {
    guard playback.restarts == restartsAtOpen else {
      throw OfflineError(.originChanged(url: destination), contentID: contentID)
    }
    let count = min(Int64(buffer.count), available(from: offset))
    guard count > 0 else { return 0 }
    let descriptor = try openedDescriptor()
    let read = pread(descriptor, buffer.baseAddress, Int(count), off_t(offset))
    guard read >= 0 else { throw fileError(.read, errno: errno) }
    return read
  }

  /// Reads `count` bytes from `offset` (fewer at the end of the file), waiting until they
  /// are on disk; a reader that is not restricted asks the download for them first.
  ///
  /// - Throws: ``OfflineError``: as ``read(into:at:)``; `canceled` when the task is
  ///   cancelled; `notPlayable` for a restricted reader when the bytes are not on disk.
  public func bytes(at offset: Int64, count: Int) async throws(OfflineError) -> Data {
    var data = Data(count: count)
    var filled = 0
    while filled < count {
      if let length, offset + Int64(filled) >= length { break }
      let position = offset + Int64(filled)
      let start = filled
      let result = data.withUnsafeMutableBytes { all in
        Result { () throws(OfflineError) -> Int in
          try self.read(into: UnsafeMutableRawBufferPointer(rebasing: all[start...]), at: position)
        }
      }
      let read = try result.get()
      if read > 0 {
        filled += read
        continue
      }
      if isRestrictedToAssetCache {
        throw OfflineError(.notPlayable(.downloading), contentID: contentID)
      }
      want(from: position)
      guard await waitForChange(whileMissing: position) else {
        throw OfflineError(.canceled, contentID: contentID)
      }
    }
    want(from: nil)
    return data.prefix(filled)
  }

  /// Tells the download that the reader needs the bytes from `offset` on now (nil: nothing
  /// more for now). Ignored for a reader restricted to what is on disk.
  public func want(from offset: Int64?) {
    guard !isRestrictedToAssetCache else { return }
    playback.want(offset, for: token)
    // A content queued behind others starts now: a player waits for it.
    if offset != nil, playback.source == nil { launches.ask() }
  }

  /// Calls `handler` (from any thread) when bytes land, the download starts or stops, or it
  /// starts the file over; nil stops it.
  public func onChange(_ handler: (@Sendable () -> Void)?) {
    playback.setWaker(handler, for: token)
  }

  /// Ends the reader: its want is dropped and its file closed. Called by `deinit` too.
  public func close() {
    let descriptor = state.withLock { state -> Int32 in
      guard !state.closed else { return -1 }
      state.closed = true
      defer { state.descriptor = -1 }
      return state.descriptor
    }
    if descriptor >= 0 { Foundation.close(descriptor) }
    if playback.removeReader(token) { manager.playbacks.forgetIfIdle(contentID) }
  }

  /// Waits until something changes (bytes land, the download starts or stops) or, as a
  /// floor, a short while passes; false when the task is cancelled.
  private func waitForChange(whileMissing offset: Int64) async -> Bool {
    let woken = Locked<CheckedContinuation<Void, Never>?>(nil)
    let wake: @Sendable () -> Void = { woken.withLock { $0.take() }?.resume() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        woken.withLock { $0 = continuation }
        onChange(wake)
        if available(from: offset) > 0 || Task.isCancelled { wake() }
        // Nothing is lost if a wake never comes (a download that ends without a write):
        // the state is looked at again after a while.
        Task {
          try? await Task.sleep(for: .milliseconds(200))
          wake()
        }
      }
    } onCancel: {
      wake()
    }
    onChange(nil)
    return !Task.isCancelled
  }

  /// The file open for reading: the part a download writes, or the file it was renamed to
  /// (the same file: a descriptor opened on the part reads it after the rename).
  private func openedDescriptor() throws(OfflineError) -> Int32 {
    let opened = state.withLock { state -> Result<Int32, OfflineError> in
      if state.closed { return .failure(OfflineError(.closed, contentID: contentID)) }
      if state.descriptor >= 0 { return .success(state.descriptor) }
      var descriptor = open(destination + ".part", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
      if descriptor < 0 { descriptor = open(destination, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
      guard descriptor >= 0 else { return .failure(fileError(.open, errno: errno)) }
      state.descriptor = descriptor
      return .success(descriptor)
    }
    return try opened.get()
  }

  /// The error of `operation` on the file failing with `code`.
  private func fileError(_ operation: TransferFileError.Operation, errno code: Int32)
    -> OfflineError
  {
    OfflineError(
      .transfer(
        Transfer.Error(
          .file(TransferFileError(operation, errno: code, path: destination)),
          url: URL(fileURLWithPath: destination), destination: destination)),
      contentID: contentID)
  }

  /// How long what the journal said while no download ran here is taken as it stands: a
  /// download in another process (`offline run`) writes it without telling this one.
  static let storedViewLifetime: Duration = .seconds(1)

  /// What is on disk and the length: the running download's view, or what the journal and
  /// the index say while none runs here (read again when that changes, and at least once
  /// every ``storedViewLifetime``).
  private func view() -> (landed: LandedBytes, length: Int64?) {
    let (source, changes) = playback.sourceAndChanges
    if let source {
      var length = state.withLock { $0.length }
      if length == nil {
        length = manager.fileLength(of: contentID, destination: destination)
        state.withLock { $0.length = length }
      }
      return (source.landed, length)
    }
    let now = ContinuousClock.now
    if let stored = state.withLock({ $0.stored }), stored.changes == changes,
      stored.at.duration(to: now) < Self.storedViewLifetime
    {
      return (stored.landed, stored.length)
    }
    let stored = manager.storedLandedBytes(of: contentID, destination: destination)
    state.withLock { state in
      state.stored = (stored.landed, stored.length, changes, now)
      if state.length == nil { state.length = stored.length }
    }
    return stored
  }
}
