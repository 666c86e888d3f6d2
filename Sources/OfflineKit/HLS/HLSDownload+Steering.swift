import Foundation
import HLSPlaylist

extension HLSDownload {
  /// Starts asking the steering manifest again while the pieces download
  /// (``SteeringReloader``), when `entry` is a master with a steering schedule and the
  /// plan's pieces have sources on more than one pathway; nil otherwise. Cancel the task
  /// when the pieces are in.
  func steeringReloads(
    _ schedule: SteeringSchedule?, entry: ParsedPlaylist, plan: HLSPlan,
    failover: StreamFailover
  ) -> Task<Void, Never>? {
    guard let schedule, schedule.due != nil, plan.sourceNames.count > 1,
      case .master(let master) = entry.playlist,
      let selection = HLSSelection.choose(from: master, options: configuration),
      let candidates = try? variantCandidates(master, selection)
    else { return nil }
    let pathways = plan.sourceNames.map { name in
      let variant = candidates.first { $0.url == name }?.variant
      return variant?.pathwayID ?? ContentSteering.defaultPathwayID
    }
    guard Set(pathways).count > 1 else { return nil }
    let reloader = SteeringReloader(
      session: session, failover: failover, locations: pathways, log: log)
    return Task { await reloader.run(schedule) }
  }
}
