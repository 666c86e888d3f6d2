import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// The blocks a request gathers its body into outlive it: when the request ends they go to a
/// pool the next requests of the process gather into (issue 14, many small files: each small
/// file's body went into a fresh block whose page faults and zeroing were 7 % of a 1000-file
/// run's CPU). A block handed on too early, or not emptied, would put one response's bytes
/// into another's body.
@Suite(.timed) struct CurlDeliveryBlockPoolTests {
  /// Sizes from under one part to several blocks (a block is 256 KiB), so a request ends with
  /// its blocks queued, delivered, spare or half gathered.
  static let sizes = [700, 16 << 10, 100 << 10, 255 << 10, 300 << 10, 700 << 10, 1 << 20]

  /// Pins the pool: waves of requests on one transport, slow and fast delegates, some
  /// cancelled as they start, and every body that completes is exactly its file, byte for
  /// byte.
  @Test func blocksReusedAcrossRequestsNeverMixTheirBodies() async throws {
    var files: [String: (count: Int, seed: UInt64)] = [:]
    for (index, size) in Self.sizes.enumerated() {
      files["f\(index).bin"] = (size, UInt64(100 + index))
    }
    let nginx = try NginxFixture(files: files)
    let transport = CurlTransport()
    let expected = Dictionary(
      uniqueKeysWithValues: Self.sizes.indices.map {
        ("f\($0).bin", TestData.bytes(count: Self.sizes[$0], seed: UInt64(100 + $0)))
      })

    for wave in 0..<4 {
      // Half the requests of odd waves are cancelled as they start: their blocks go back
      // to the pool with whatever they held dropped.
      let cancelled = wave % 2 == 1
      try await withThrowingTaskGroup(of: (String, Data?).self) { group in
        for (index, name) in expected.keys.sorted().enumerated() {
          let slow = (index + wave) % 3 == 0
          let stopsEarly = cancelled && index % 2 == 0
          group.addTask {
            let delegate = RecordingDelegate(pausePerPart: slow ? .milliseconds(2) : .zero)
            let url = nginx.url("/" + name)
            let request = Task {
              try await transport.perform(HTTPRequest(url: url), delegate: delegate)
            }
            if stopsEarly {
              request.cancel()
              _ = try? await request.value
              return (name, nil)
            }
            let head = try await request.value
            #expect(head.status == 200)
            return (name, delegate.body)
          }
        }
        for try await (name, body) in group {
          guard let body else { continue }
          #expect(body == expected[name], "wave \(wave): \(name) came back altered")
        }
      }
    }
  }
}
