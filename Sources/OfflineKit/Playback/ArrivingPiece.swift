import Foundation
import OfflineLocks

/// A piece of a stream (a segment, an init section) that the running download is fetching,
/// read as its bytes arrive: its part file, opened once, read up to the bytes written so
/// far. A player that asked for it gets the first bytes while the rest is still on the
/// wire, not after the whole piece has landed.
///
/// Made by ``OfflineContent/piece(_:restrictedToAssetCache:patience:)`` only once the
/// piece's length is known and its part holds bytes: a piece whose body still fits in the
/// transfer's write buffer (128 KiB) is awaited whole instead. The descriptor reads the same
/// file after the download renames the part into place.
///
/// Every member may be called from any thread. ``read(into:at:)`` never waits; the handler
/// given to ``onChange(_:)`` is called from the download's threads at each of its progress
/// ticks and when the piece lands or stops.
package final class ArrivingPiece: Sendable {
  /// The piece's length in bytes.
  package let length: Int64
  private let local: String
  private let playback: StreamPlayback
  private let restartsAtOpen: Int
  private struct State {
    var descriptor: Int32
    var waker: Int?
  }
  private let state: Locked<State>

  /// The piece `local` of `playback`, in flight as `flight`, read through `descriptor` (an
  /// open descriptor of its part, which this now owns).
  init(
    _ local: String, flight: StreamPlayback.Flight, length: Int64, descriptor: Int32,
    playback: StreamPlayback
  ) {
    self.local = local
    self.length = length
    self.playback = playback
    self.restartsAtOpen = flight.restarts
    self.state = Locked(State(descriptor: descriptor))
  }

  deinit { close() }

  /// What ``read(into:at:)`` found.
  package enum Read: Sendable, Equatable {
    /// This many bytes were read into the buffer.
    case bytes(Int)
    /// The byte at the offset has not arrived yet.
    case notYet
    /// The piece can no longer be read this way: it started over (its origin sent other
    /// bytes), stopped without landing, or its file cannot be read. A response that began
    /// must stop short.
    case gone
  }

  /// Reads the bytes from `offset` on that have arrived, as many as fit in `buffer` (none
  /// past ``length``). Never waits.
  package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Read {
    guard offset < length else { return .bytes(0) }
    let flight = playback.flight(of: local)
    if let flight, flight.restarts != restartsAtOpen { return .gone }
    let descriptor = state.withLock { $0.descriptor }
    guard descriptor >= 0 else { return .gone }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .gone }
    let written = min(Int64(status.st_size), length)
    if written <= offset {
      // Not in flight any more, yet short: it stopped, or landed with fewer bytes than said.
      return flight == nil ? .gone : .notYet
    }
    let count = Int(min(Int64(buffer.count), written - offset))
    let read = pread(descriptor, buffer.baseAddress, count, off_t(offset))
    return read > 0 ? .bytes(read) : .gone
  }

  /// Calls `handler` (from any thread) when the download's progress ticks for any piece,
  /// or a piece lands or stops; nil stops it.
  package func onChange(_ handler: (@Sendable () -> Void)?) {
    let earlier = state.withLock { state -> Int? in
      defer { state.waker = nil }
      return state.waker
    }
    if let earlier { playback.removeWaker(earlier) }
    guard let handler else { return }
    let token = playback.addWaker(handler)
    state.withLock { $0.waker = token }
  }

  /// Closes the part's descriptor and stops the handler. Called by `deinit` too.
  package func close() {
    onChange(nil)
    let descriptor = state.withLock { state -> Int32 in
      defer { state.descriptor = -1 }
      return state.descriptor
    }
    if descriptor >= 0 { Foundation.close(descriptor) }
  }
}
