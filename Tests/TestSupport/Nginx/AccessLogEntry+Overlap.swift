extension Array where Element == AccessLogEntry {
  /// How many of these requests were in progress together at the busiest moment: for each
  /// request's start, the requests that had started and not yet finished. Needs the times
  /// of `NginxServer.Options.logsConnections`; entries without them count as none.
  public var mostAtOnce: Int {
    compactMap { entry -> Int? in
      guard let start = entry.startedAt else { return nil }
      return filter { other in
        guard let otherStart = other.startedAt, let otherEnd = other.finishedAt else {
          return false
        }
        return otherStart <= start && start < otherEnd
      }.count
    }.max() ?? 0
  }
}
