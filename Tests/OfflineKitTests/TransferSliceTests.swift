import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Slice transfers: one byte range of a resource into its own file (HLS byte-range segments).
@Suite(.timed) struct TransferSliceTests {
  let body = TestData.bytes(count: 3 << 20, seed: 41)
  let slice = Transfer.Slice(offset: 1_000_000, length: 500_000)
  var expected: Data { body.subdata(in: 1_000_000..<1_500_000) }

  func head(_ status: Int, _ fields: [(String, String)]) -> HTTPResponseHead {
    HTTPResponseHead(
      status: status, headers: HTTPHeaders(fields.map { .init(name: $0.0, value: $0.1) }),
      url: URL(string: "http://127.0.0.1/f")!, version: "HTTP/1.1")
  }

  @Test func asksForExactlyTheSliceAndResumesInsideIt() {
    var fresh = TransferStateMachine(
      offset: 0, validators: Validators(), totalLength: nil, slice: slice)
    #expect(
      fresh.start()
        == .requestSlice(first: 1_000_000, last: 1_499_999, ifRange: nil, discardingPart: nil))
    var resumed = TransferStateMachine(
      offset: 100, validators: Validators(etag: "\"a\""), totalLength: nil, slice: slice)
    #expect(
      resumed.start()
        == .requestSlice(first: 1_000_100, last: 1_499_999, ifRange: "\"a\"", discardingPart: nil))
    var whole = TransferStateMachine(
      offset: 500_000, validators: Validators(etag: "\"a\""), totalLength: nil, slice: slice)
    #expect(whole.start() == .verify)
  }

  @Test func a206ForAnotherRangeIsNotAppended() {
    var machine = TransferStateMachine(
      offset: 0, validators: Validators(), totalLength: nil, slice: slice)
    _ = machine.start()
    let action = machine.didReceiveHead(head(206, [("Content-Range", "bytes 0-499999/3145728")]))
    #expect(action == .discardThenRestart(.rangeMismatch))
  }

  @Test func a200IsCutDownToTheSlice() {
    var machine = TransferStateMachine(
      offset: 0, validators: Validators(), totalLength: nil, slice: slice)
    _ = machine.start()
    let action = machine.didReceiveHead(head(200, [("Content-Length", "3145728")]))
    #expect(action == .writeSlice(skip: 1_000_000, restartReason: nil))
  }

  @Test func downloadsASliceFromNginx() async throws {
    let root = try TemporaryDirectory(prefix: "offlinekit-www")
    try body.write(to: root.file("file.bin"))
    let nginx = try NginxServer(root: root.url)
    try nginx.start()
    let fixture = try TransferFixture()
    let outcome = try await fixture.transfer(
      nginx.url("/file.bin"), configuration: .quick { $0.slice = slice }
    ).run()
    #expect(fileData(outcome.destination) == expected)
    #expect(try await nginx.accessLog(minimumCount: 1).first?.range == "bytes=1000000-1499999")
  }

  @Test func aServerIgnoringRangesStillGivesJustTheSlice() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body, acceptsRanges: false)))
    let fixture = try TransferFixture()
    let outcome = try await fixture.transfer(
      server.url("/f"), configuration: .quick { $0.slice = slice }
    )
    .run()
    #expect(fileData(outcome.destination) == expected)
  }

  @Test func aCutSliceResumesInsideTheSlice() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 200_000))))
    let fixture = try TransferFixture()
    let outcome = try await fixture.transfer(
      server.url("/f"), configuration: .quick { $0.slice = slice }
    )
    .run()
    #expect(fileData(outcome.destination) == expected)
    let ranges = server.requests(for: "/f").map { $0.headers["range"] }
    #expect(ranges == ["bytes=1000000-1499999", "bytes=1200000-1499999"])
  }
}
