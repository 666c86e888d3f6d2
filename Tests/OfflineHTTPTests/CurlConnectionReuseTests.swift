import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Session 24 (issue 14: "connections reused across the queue's files"): libcurl's default
/// connection cache holds four connections per request in the multi handle when a request
/// ends, so a request that ended while few others were under way closed the idle
/// connections above that, and the next requests opened new ones. The benchmark's queue of
/// 1000 small files at `--parallel 8` used 58 to 87 connections; curl's `--parallel` used 8.
@Suite(.timed) struct CurlConnectionReuseTests {
  /// Eight requests at once, then eight one after the other, then eight at once again: the
  /// requests made alone each ended with one request in the multi handle (a cache of four,
  /// by default), and the last round found four connections where it needed eight.
  @Test func aQueuesConnectionsOutliveMomentsWithFewRequestsUnderWay() async throws {
    let parallel = 8
    var files: [String: (count: Int, seed: UInt64)] = [:]
    for index in 0..<parallel * 3 { files["f\(index).bin"] = (64 << 10, UInt64(index)) }
    let nginx = try NginxFixture(files: files, options: .init(logsConnections: true))
    let transport = CurlTransport()
    let get = { @Sendable (index: Int) async throws -> Int in
      let delegate = RecordingDelegate(keepsBody: false)
      let url = nginx.url("/f\(index).bin")
      return try await transport.perform(HTTPRequest(url: url), delegate: delegate).status
    }
    let atOnce = { @Sendable (first: Int) async throws -> [Int] in
      try await withThrowingTaskGroup(of: Int.self) { group in
        for index in first..<first + parallel { group.addTask { try await get(index) } }
        var all: [Int] = []
        for try await status in group { all.append(status) }
        return all
      }
    }

    var statuses = try await atOnce(0)
    for index in parallel..<parallel * 2 { statuses.append(try await get(index)) }
    statuses += try await atOnce(parallel * 2)

    #expect(statuses == Array(repeating: 200, count: parallel * 3))
    let log = try await nginx.server.accessLog(minimumCount: parallel * 3)
    #expect(log.count == parallel * 3)
    let connections = Set(log.compactMap(\.connection))
    #expect(
      connections.count <= parallel,
      "\(connections.count) connections for \(parallel * 3) requests, at most \(parallel) at once")
  }
}
