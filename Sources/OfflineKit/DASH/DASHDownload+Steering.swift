import Foundation

extension DASHDownload {
  /// Starts asking the steering server (again) while the pieces download
  /// (``SteeringReloader``), when `schedule` plans a request and the plan's sources name
  /// more than one service location; nil otherwise. Cancel the task when the pieces are in.
  func steeringReloads(_ schedule: SteeringSchedule?, plan: DASHPlan, failover: StreamFailover)
    -> Task<Void, Never>?
  {
    guard let schedule, schedule.due != nil,
      plan.sourceLocations.count == failover.names.count,
      Set(plan.sourceLocations.compactMap { $0 }).count > 1
    else { return nil }
    let reloader = SteeringReloader(
      session: session, failover: failover, locations: plan.sourceLocations, log: log)
    return Task { await reloader.run(schedule) }
  }
}
