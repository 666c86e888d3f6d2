import Foundation
import TestTiming
import Testing

@testable import TestSupport

@Suite(.timed) struct FaultServerFaultTests {
  let body = TestData.bytes(count: 200_000, seed: 7)

  @Test func cutsTheFirstResponseOnly() async throws {
    let server = try FaultServer()
    server.setRoute("/a.bin", .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 1000))))
    let cut = try await Curl.fetch(server.url("/a.bin"))
    #expect(cut.exitCode == 18)
    #expect(cut.body == body.prefix(1000))
    #expect(cut.headers["connection"] == "close")
    let resumed = try await Curl.fetch(server.url("/a.bin"), ["-r", "1000-"])
    #expect(resumed.exitCode == 0)
    #expect(cut.body + resumed.body == body)
  }

  @Test func cutsEveryResponseWhenAsked() async throws {
    let server = try FaultServer()
    let faults = FaultServer.Faults(cutAfterBodyBytes: 10, cutResponses: .max)
    server.setRoute("/a.bin", .resource(.init(body: body, faults: faults)))
    #expect(try await Curl.fetch(server.url("/a.bin")).exitCode == 18)
    #expect(try await Curl.fetch(server.url("/a.bin"), ["-r", "10-"]).exitCode == 18)
  }

  @Test func declaresMoreBytesThanItSends() async throws {
    let server = try FaultServer()
    server.setRoute("/a.bin", .resource(.init(body: body, faults: .init(declaredExtraLength: 50))))
    let short = try await Curl.fetch(server.url("/a.bin"), ["-r", "100-"])
    #expect(short.exitCode == 18)
    #expect(short.headers["content-length"] == "\(body.count - 100 + 50)")
    #expect(short.body == body.suffix(from: 100))
  }

  @Test func stallsThenContinues() async throws {
    let server = try FaultServer()
    let faults = FaultServer.Faults(stallAfterBodyBytes: 500, stallSeconds: 0.5)
    server.setRoute("/a.bin", .resource(.init(body: body, faults: faults)))
    let result = try await Curl.fetch(server.url("/a.bin"))
    #expect(result.exitCode == 0)
    #expect(result.body == body)
    let timedOut = try await Curl.fetch(
      server.url("/a.bin"), ["-y", "1", "-Y", "1000", "--max-time", "0.2"])
    #expect(timedOut.exitCode == 28)
  }

  @Test func stopEndsAStall() async throws {
    let server = try FaultServer()
    let faults = FaultServer.Faults(stallAfterBodyBytes: 0, stallSeconds: 60)
    server.setRoute("/a.bin", .resource(.init(body: body, faults: faults)))
    let url = server.url("/a.bin")
    let download = Task.detached { try await Curl.fetch(url) }
    let deadline = ContinuousClock.now + .seconds(5)
    while server.requests.isEmpty && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    try await Task.sleep(for: .milliseconds(50))
    server.stop()
    // Without `stop()` ending the 60 s pause, curl's 20 s limit would end it with 28.
    let result = try await download.value
    #expect(result.exitCode == 18)
    #expect(result.body.isEmpty)
  }

  @Test func liesInContentRange() async throws {
    let server = try FaultServer()
    server.setRoute("/a.bin", .resource(.init(body: body, faults: .init(contentRangeShift: 7))))
    let result = try await Curl.fetch(server.url("/a.bin"), ["-r", "100-199"])
    #expect(result.status == 206)
    #expect(result.headers["content-range"] == "bytes 107-206/\(body.count)")
    #expect(result.body == body[100..<200])
  }

  @Test func tricklesTheBody() async throws {
    let server = try FaultServer()
    let faults = FaultServer.Faults(bytesPerSecond: 20_000)
    server.setRoute("/a.bin", .resource(.init(body: body, faults: faults)))
    let result = try await Curl.fetch(server.url("/a.bin"), ["-r", "0-9999"])
    #expect(result.exitCode == 0)
    #expect(result.body == body.prefix(10_000))
  }

  @Test func leavesHeadRequestsUncut() async throws {
    let server = try FaultServer()
    server.setRoute("/a.bin", .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 10))))
    #expect(try await Curl.fetch(server.url("/a.bin"), ["-I"]).exitCode == 0)
    #expect(try await Curl.fetch(server.url("/a.bin")).exitCode == 18)
  }
}
