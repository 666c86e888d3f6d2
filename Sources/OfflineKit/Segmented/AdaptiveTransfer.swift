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
  /// How long one connection runs before its rate is judged: two progress updates (250 ms
  /// apart, the first rate comes with the second), short, because every second of it on an
  /// origin that caps each connection goes at one connection's speed (on nginx's
  /// `limit_rate 40m`, 2 s cost 1 GiB about 0.9 s against aria2c -x8, and 1 s still made the
  /// default 0.90x of aria2c -x8 where `--max-connections 16` was 0.67x).
  static let trial: Duration = .milliseconds(500)
  /// How often the rate is judged again after the trial: the first rate comes with the
  /// second progress update, which may land just after the trial ends (a 250 ms recheck made
  /// the 0.5 s trial 0.75 s).
  static let recheck: Duration = .milliseconds(100)
  /// Below this rate (bytes per second) one connection counts as slow.
  static let slowRate: Double = 50_000_000
  /// Files with less than this left never switch.
  static let minimumRemaining: Int64 = 64 << 20

  private final class Watch: Sendable {
    let progress = Locked<OfflineProgress?>(nil)
    let switching = Atomic<Bool>(false)
  }

  func run(onEvent: @escaping @Sendable (Transfer.Event) -> Void) async throws(Transfer.Error)
    -> Transfer.Outcome
  {
    let watch = Watch()
    let single = Task { () throws(Transfer.Error) -> Transfer.Outcome in
      try await transfer.runSingle { event in
        if case .progress(let progress) = event { watch.progress.withLock { $0 = progress } }
        onEvent(event)
      }
    }
    let watchdog = Task {
      try? await Task.sleep(for: Self.trial)
      while !Task.isCancelled {
        if let progress = watch.progress.withLock({ $0 }), let total = progress.total,
          total - progress.bytes >= Self.minimumRemaining, progress.bytesPerSecond > 0,
          progress.bytesPerSecond < Self.slowRate
        {
          watch.switching.store(true, ordering: .sequentiallyConsistent)
          single.cancel()
          return
        }
        try? await Task.sleep(for: Self.recheck)
      }
    }
    let result = await withTaskCancellationHandler {
      await single.result
    } onCancel: {
      single.cancel()
    }
    watchdog.cancel()
    switch result {
    case .success(let outcome):
      return outcome
    case .failure(let failure):
      let error = failure as? Transfer.Error ?? transfer.failure(.cancelled)
      guard case .cancelled = error.kind, watch.switching.load(ordering: .sequentiallyConsistent),
        !Task.isCancelled, try prepareRanges()
      else { throw error }
      return try await SegmentedTransfer(
        transfer: transfer, connections: startConnections,
        maximumConnections: transfer.configuration.maximumConnections ?? Self.maximumConnections
      ).run(onEvent: onEvent)
    }
  }

  /// Turns the one-connection part into ranges: what is written is a finished range, the
  /// rest is split. False when the journal cannot back a split (no validator, no length).
  private func prepareRanges() throws(Transfer.Error) -> Bool {
    let journal = transfer.journal
    guard
      let record = try transfer.indexStep({ () throws(StoreError) in
        try journal.record(forDestination: transfer.destination)
      }), let total = record.totalLength,
      Validators(etag: record.etag, lastModified: record.lastModified).ifRangeValue != nil,
      let written = FileSteps.regularFileSize(transfer.partPath), written < total
    else { return false }
    guard truncate(transfer.partPath, off_t(total)) == 0 else { return false }
    unlink(transfer.partPath + ".ranges")  // any old map would describe other ranges
    let rest = SegmentedTransfer.split(total - written, into: startConnections).map {
      TransferRange(start: $0.start + written, end: $0.end + written, next: $0.next + written)
    }
    let ranges = (written > 0 ? [TransferRange(start: 0, end: written, next: written)] : []) + rest
    try transfer.indexStep { () throws(StoreError) in
      try journal.saveRanges(ranges, forDestination: transfer.destination)
    }
    return true
  }
}
