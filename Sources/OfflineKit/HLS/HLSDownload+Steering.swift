import Foundation
import HLSPlaylist

extension HLSDownload {
  /// Names the content steering pathway of each source of `failover` (the reports carry
  /// them), and starts asking the steering manifest again while the pieces download
  /// (``SteeringReloader``), when `entry` is a master with a steering schedule; nil
  /// otherwise. A pathway clone that first appears in a reload joins the sources
  /// (``HLSReloadClones``). Cancel the task when the pieces are in.
  func steeringReloads(
    _ schedule: SteeringSchedule?, entry: ParsedPlaylist, plan: HLSPlan,
    failover: StreamFailover
  ) -> Task<Void, Never>? {
    guard let schedule, case .master(let master) = entry.playlist,
      let selection = HLSSelection.choose(from: master, options: configuration),
      let candidates = try? variantCandidates(master, selection)
    else { return nil }
    let pathways = failover.names.map { name in
      let variant = candidates.first { $0.url == name }?.variant
      return variant?.pathwayID ?? ContentSteering.defaultPathwayID
    }
    failover.name(pathways: pathways)
    guard schedule.due != nil else { return nil }
    var reloader = SteeringReloader(
      session: session, failover: failover, locations: pathways, log: log)
    let clones = HLSReloadClones(
      download: self, master: master, selection: selection, plan: plan, failover: failover,
      variables: entry.variables)
    reloader.addsSources = { object, url in await clones.add(from: object, manifestURL: url) }
    return Task { await reloader.run(schedule) }
  }
}
