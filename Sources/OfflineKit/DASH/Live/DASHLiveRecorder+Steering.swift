import DASHManifest
import Foundation

extension DASHLiveRecorder {
  /// The recorder ready to record from `first`, as a VOD download of the MPD would be
  /// (``DASHSteering``): `first` ordered by its content steering (asked once before with
  /// `queryBeforeStart`), the order kept for every MPD update (``steeringOrder``), one
  /// ``StreamFailover`` over the sources of the first track's `BaseURL`s when there are
  /// several (a segment that fails at one is fetched from the next, and a source failing
  /// segment after segment is tried last), and the task that asks the steering server again
  /// as its `TTL` says and reorders the sources, nil when none asks. Cancel that task when
  /// the recording ends.
  func steering(_ first: DASHLiveManifest) async -> (
    recorder: DASHLiveRecorder, first: DASHLiveManifest, reloads: Task<Void, Never>?
  ) {
    var recorder = self
    var manifest = first
    let (steered, schedule) = await DASHSteering.steered(
      first.mpd, manifestURL: download.url, session: download.session, onNote: download.log)
    manifest.mpd = steered
    recorder.steeringOrder = DASHSteering.startOrder(of: first.mpd, after: schedule)
    guard let path = paths.first,
      let window = try? DASHLiveWindow(
        path, of: steered, manifestURL: download.url, at: first.wallTime(at: clock.now)),
      window.sourceNames.count > 1
    else { return (recorder, manifest, nil) }
    let failover = StreamFailover(names: window.sourceNames)
    recorder.failover = failover
    let reloads = download.steeringReloads(
      schedule, locations: window.sourceLocations, failover: failover)
    return (recorder, manifest, reloads)
  }

  /// `manifest`, an update of the MPD, ordered as the recording started
  /// (``steeringOrder``), so each source keeps its rank in the ``failover``.
  func steered(_ manifest: DASHLiveManifest) -> DASHLiveManifest {
    guard !steeringOrder.isEmpty else { return manifest }
    var steered = manifest
    steered.mpd = manifest.mpd.steered(by: steeringOrder)
    return steered
  }
}
