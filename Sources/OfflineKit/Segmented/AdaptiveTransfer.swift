import Foundation
import OfflineLocks
import OfflineStore
import Synchronization

/// The automatic choice of connections: one connection first; when the file turns out large
/// and the one connection slow (a per-connection limit, as CDNs and busy servers set), the
/// transfer stops and goes on over several connections from where it stood.
struct AdaptiveTransfer {
  let transfer: Transfer

  /// Connections used after switching.
  static let connections = 8
  /// The most connections the switched download grows to, unless
  /// ``Transfer/Configuration/maximumConnections`` says otherwise.
  static let maximumConnections = 16

  /// Connections at the switch: eight, or the configured maximum when that is lower.
  var startConnections: Int {
    max(1, min(Self.connections, transfer.configuration.maximumConnections ?? Self.connections))
  }

  /// Connections at a switch made for readers' wants (``FilePlayback``) while a cap of ours
  /// holds the one connection back: one, beside the readers' own; more would share the cap
  /// and cut each other's ranges, each cut wasting what its socket held.
  static let connectionsForReadersUnderACap = 1
  /// How long one connection runs before its rate is judged. Short, because every moment
  /// of it on an origin that caps each connection goes at one connection's speed: on nginx's
  /// `limit_rate 40m`, a 2 s trial cost 1 GiB about 0.9 s against aria2c -x8, and a 0.5 s
  /// one (two progress updates, the smoothed rate coming with the second) still made the
  /// default 0.82x of aria2c -x8 where `--max-connections 16` was 0.67x. The first progress
  /// update after this is judged by the mean rate since the request went out.
  static let trial: Duration = .milliseconds(200)
  /// Below this rate (bytes per second) one connection counts as slow.
  static let slowRate: Double = 50_000_000
  /// Files with less than this left never switch.
  static let minimumRemaining: Int64 = 64 << 20

  /// Judges the one connection at each of its progress updates, on the task that runs it,
  /// and stops it when it is slow. No timer: the updates are the clock.
  private final class Watch: Sendable {
    private struct State {
      /// Where this request's body began and when it went out.
      var request: (offset: Int64, at: ContinuousClock.Instant)?
      var single: Task<Transfer.Outcome, any Error>?
      /// The bytes written and the length, as the last progress update said.
      var written: Int64 = 0
      var total: Int64?
      /// Why it stopped to switch: for readers' wants, or for its slowness.
      var forReaders = false
    }
    private let state = Locked(State())
    let switching = Atomic<Bool>(false)

    func watch(_ single: Task<Transfer.Outcome, any Error>) {
      state.withLock { $0.single = single }
    }

    /// Takes one of the connection's events; stops it when it should switch.
    func see(_ event: Transfer.Event) {
      let slow: Task<Transfer.Outcome, any Error>? = state.withLock { state in
        switch event {
        case .requesting(let offset):
          state.request = (offset, .now)
          return nil
        case .progress(let progress):
          state.written = progress.bytes
          state.total = progress.total
          guard let request = state.request, isSlow(progress, since: request) else {
            return nil
          }
          return state.single
        case .restarted, .retrying, .verifying, .sourceDropped, .refetchingPieces,
          .peerInsteadOfOrigin:
          return nil
        }
      }
      guard let slow else { return }
      stop(slow, forReaders: false)
    }

    /// Stops the one connection to go on over several, once.
    private func stop(_ single: Task<Transfer.Outcome, any Error>, forReaders: Bool) {
      guard !switching.exchange(true, ordering: .sequentiallyConsistent) else { return }
      state.withLock { $0.forReaders = forReaders }
      single.cancel()
    }

    /// Whether the switch was made for readers' wants rather than for a slow connection.
    var switchedForReaders: Bool { state.withLock { $0.forReaders } }

    /// A reader of the file wants bytes from one of `wants` on (``FilePlayback``): when one
    /// lies past what the connection has written by more than ``SegmentedTransfer/demandSoon``
    /// and the file is long enough to split, the connection stops to go on over several,
    /// where a connection of its own fetches that byte first. `splittable` says whether
    /// the journal can back ranges (a length and a validator).
    func readersWant(_ wants: [Int64], splittable: () -> Bool) {
      let single: Task<Transfer.Outcome, any Error>? = state.withLock { state in
        guard let total = state.total, total >= SegmentedTransfer.minimumSize,
          wants.contains(where: { $0 > state.written + SegmentedTransfer.demandSoon && $0 < total })
        else { return nil }
        return state.single
      }
      guard let single, splittable() else { return }
      stop(single, forReaders: true)
    }

    /// Whether `progress` shows a slow connection on a file with enough left to split: the
    /// smoothed rate once there is one, before it the mean since the request went out
    /// (at least ``trial`` ago, and some body arrived), under ``slowRate`` and under
    /// ``capShare`` of the tightest cap there is.
    private func isSlow(
      _ progress: OfflineProgress, since request: (offset: Int64, at: ContinuousClock.Instant)
    ) -> Bool {
      guard let total = progress.total, total - progress.bytes >= minimumRemaining else {
        return false
      }
      let elapsed = request.at.duration(to: .now)
      let received = progress.bytes - request.offset
      guard elapsed >= trial, received > 0 else { return false }
      let rate =
        progress.bytesPerSecond > 0 ? progress.bytesPerSecond : Double(received) / elapsed.inSeconds
      // Held back by our own cap, not the origin: more connections would share that cap,
      // and each range they cut would waste what its socket held.
      if let cap = cap(), rate >= Self.capShare * cap { return false }
      return rate < slowRate
    }

    /// The share of the tightest cap at or above which the one connection counts as
    /// running at the cap.
    static let capShare = 0.7

    /// The tightest cap over the download now (``ContentSession/tightestRate``).
    private let cap: @Sendable () -> Double?

    init(cap: @escaping @Sendable () -> Double?) {
      self.cap = cap
    }
  }

  /// Runs the download: one connection first (writing through the part `lock` holds open,
  /// when given), several once it shows slow.
  func run(onEvent: @escaping @Sendable (Transfer.Event) -> Void, lock: DestinationLock? = nil)
    async throws(Transfer.Error) -> Transfer.Outcome
  {
    // An earlier run switched and was stopped: its ranges go on where they stood. One
    // connection would start over from the written prefix of the first ranges.
    if try leftRanges(partLength: lock?.partLength) {
      return try await switched.run(onEvent: onEvent)
    }
    let transfer = self.transfer
    let session = transfer.session
    let watch = Watch(cap: { session.tightestRate })
    var onDemand: (@Sendable () -> Void)?
    if let playback = transfer.configuration.playback {
      onDemand = {
        watch.readersWant(playback.wants, splittable: { transfer.journalCanBackRanges })
      }
    }
    let demandHandler = onDemand
    let single = Task { () throws(Transfer.Error) -> Transfer.Outcome in
      try await transfer.runSingle(
        onEvent: { event in
          watch.see(event)
          // A reader that came before the length was known is weighed again.
          if case .progress = event { demandHandler?() }
          onEvent(event)
        }, lock: lock, onDemand: demandHandler)
    }
    watch.watch(single)
    let result = await withTaskCancellationHandler {
      await single.result
    } onCancel: {
      single.cancel()
    }
    switch result {
    case .success(let outcome):
      return outcome
    case .failure(let failure):
      let error = failure as? Transfer.Error ?? transfer.failure(.canceled)
      guard case .canceled = error.kind, watch.switching.load(ordering: .sequentiallyConsistent),
        !Task.isCancelled
      else { throw error }
      var target = switched(forReaders: watch.switchedForReaders)
      // The one connection's response named any duplicates; the ranges learn them again.
      target.asksHintsOnResume = transfer.configuration.playback == nil
      guard try transfer.turnPartIntoRanges(splittingTheRestInto: target.connections) else {
        throw error
      }
      return try await target.run(onEvent: onEvent)
    }
  }

  /// The download over several connections this one switches to.
  private var switched: SegmentedTransfer { switched(forReaders: false) }

  /// The download over several connections this one switches to; for readers under a cap,
  /// ``connectionsForReadersUnderACap`` that do not grow.
  private func switched(forReaders: Bool) -> SegmentedTransfer {
    guard forReaders, transfer.session.tightestRate != nil else {
      return SegmentedTransfer(
        transfer: transfer, connections: startConnections,
        maximumConnections: transfer.configuration.maximumConnections ?? Self.maximumConnections)
    }
    let connections = Self.connectionsForReadersUnderACap
    return SegmentedTransfer(
      transfer: transfer, connections: connections, maximumConnections: connections)
  }

  /// Whether an earlier run of this transfer switched and left ranges in the journal. Only
  /// a part as long as a split file is looked up (a switch makes it the file's length); its
  /// length is `partLength` when known (read under the destination's lock), else a stat's.
  private func leftRanges(partLength: Int64?) throws(Transfer.Error) -> Bool {
    let length = partLength ?? FileSteps.regularFileSize(transfer.partPath) ?? 0
    guard length >= SegmentedTransfer.minimumSize else { return false }
    return try !transfer.indexStep { () throws(StoreError) in
      try transfer.journal.ranges(forDestination: transfer.destination)
    }.isEmpty
  }
}

extension Transfer {
  /// Whether the journal holds what ranges need to go on from this transfer's part: its
  /// length and a validator for `If-Range`.
  var journalCanBackRanges: Bool {
    guard let record = try? journal.record(forDestination: destination) else { return false }
    return record.totalLength != nil
      && Validators(etag: record.etag, lastModified: record.lastModified).ifRangeValue != nil
  }
}
