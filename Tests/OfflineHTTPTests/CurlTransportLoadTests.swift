import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Many transfers on one transport, and a slow delegate slowing the network instead of
/// filling memory.
@Suite(.timed) struct CurlTransportLoadTests {
  @Test func runsTwentyConcurrentRequestsOnOneTransport() async throws {
    let count = 20
    var files: [String: (count: Int, seed: UInt64)] = [:]
    for index in 0..<count { files["f\(index).bin"] = ((256 << 10) + index, UInt64(index)) }
    let nginx = try NginxFixture(files: files)
    let transport = CurlTransport()

    typealias Finished = (index: Int, delegate: RecordingDelegate, error: HTTPError?)
    let delegates = await withTaskGroup(of: Finished.self) { group in
      for index in 0..<count {
        group.addTask {
          let delegate = RecordingDelegate()
          let request = HTTPRequest(url: nginx.url("/f\(index).bin"))
          let outcome = await transport.outcome(of: request, delegate: delegate)
          if case .failure(let error) = outcome { return (index, delegate, error) }
          return (index, delegate, nil)
        }
      }
      var results: [Finished] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.index < $1.index }
    }

    #expect(delegates.count == count)
    for (index, delegate, error) in delegates {
      #expect(error == nil, "request \(index): \(error.map { "\($0)" } ?? "")")
      #expect(delegate.head?.status == 200)
      #expect(
        delegate.body == TestData.bytes(count: (256 << 10) + index, seed: UInt64(index)),
        "request \(index)")
    }
  }
}
