import Foundation
import OfflineHTTP
import TestTiming
import Testing

@testable import OfflineKit

/// One test per row of the transfer's decision table, without a network.
@Suite(.timed) struct TransferStateMachineTests {
  let url = URL(string: "http://127.0.0.1/file.bin")!

  func head(_ status: Int, _ fields: [(String, String)] = []) -> HTTPResponseHead {
    HTTPResponseHead(
      status: status, headers: HTTPHeaders(fields.map { .init(name: $0.0, value: $0.1) }),
      url: url, version: "HTTP/1.1")
  }

  @Test func freshTransferRequestsTheWholeFile() {
    var machine = TransferStateMachine(offset: 0, validators: Validators(), totalLength: nil)
    #expect(machine.start() == .requestWhole(discardingPart: nil))
  }

  @Test func resumesWithRangeAndStrongETag() {
    var machine = TransferStateMachine(
      offset: 100, validators: Validators(etag: "\"abc\"", lastModified: "Mon"), totalLength: 1000)
    #expect(machine.start() == .requestRange(offset: 100, ifRange: "\"abc\""))
  }

  @Test func resumesWithLastModifiedWhenTheETagIsWeak() {
    let date = "Sun, 06 Nov 1994 08:49:37 GMT"
    var machine = TransferStateMachine(
      offset: 100, validators: Validators(etag: "W/\"abc\"", lastModified: date), totalLength: 1000)
    #expect(machine.start() == .requestRange(offset: 100, ifRange: date))
  }

  @Test func startsOverWhenNoValidatorCanProtectTheResume() {
    var machine = TransferStateMachine(
      offset: 100, validators: Validators(etag: "W/\"weak\""), totalLength: 1000)
    #expect(machine.start() == .requestWhole(discardingPart: .noValidator))
    #expect(machine.offset == 0)
  }

  @Test func aPartAsLongAsTheFileIsVerifiedWithoutARequest() {
    var machine = TransferStateMachine(
      offset: 1000, validators: Validators(etag: "\"a\""), totalLength: 1000)
    #expect(machine.start() == .verify)
  }

  @Test func aPartLongerThanTheFileStartsOver() {
    var machine = TransferStateMachine(
      offset: 1001, validators: Validators(etag: "\"a\""), totalLength: 1000)
    #expect(machine.start() == .requestWhole(discardingPart: .lengthChanged))
  }

  @Test func appendsA206ThatStartsAtTheOffset() {
    var machine = TransferStateMachine(
      offset: 100, validators: Validators(etag: "\"a\""), totalLength: nil)
    _ = machine.start()
    let action = machine.didReceiveHead(
      head(206, [("Content-Range", "bytes 100-999/1000"), ("ETag", "\"a\"")]))
    #expect(action == .append)
    #expect(machine.totalLength == 1000)
  }

  /// A 206 that does not continue the part is never appended: one that starts elsewhere or
  /// has no `Content-Range` is a range mismatch, one with another complete length means
  /// another file. One case per row.
  @Test(
    arguments: [
      ("bytes 50-999/1000", .rangeMismatch), (nil, .rangeMismatch),
      ("bytes 100-1999/2000", .lengthChanged),
    ] as [(String?, TransferStateMachine.RestartReason)])
  func a206ThatDoesNotContinueThePartIsNotAppended(
    contentRange: String?, reason: TransferStateMachine.RestartReason
  ) {
    var machine = TransferStateMachine(
      offset: 100, validators: Validators(etag: "\"a\""), totalLength: 1000)
    _ = machine.start()
    let fields = contentRange.map { [("Content-Range", $0)] } ?? []
    #expect(machine.didReceiveHead(head(206, fields)) == .discardThenRestart(reason))
  }

  @Test func a200ToARangeRequestWithNewValidatorsMeansTheFileChanged() {
    var machine = TransferStateMachine(
      offset: 100, validators: Validators(etag: "\"old\""), totalLength: 1000)
    _ = machine.start()
    let action = machine.didReceiveHead(
      head(200, [("ETag", "\"new\""), ("Content-Length", "900")]))
    #expect(action == .writeFromStart(restartReason: .resourceChanged))
    #expect(machine.offset == 0)
    #expect(machine.totalLength == 900)
    #expect(machine.validators.etag == "\"new\"")
  }

  @Test func a200ToARangeRequestWithTheSameValidatorsMeansRangesAreIgnored() {
    var machine = TransferStateMachine(
      offset: 100, validators: Validators(etag: "\"a\""), totalLength: 1000)
    _ = machine.start()
    let action = machine.didReceiveHead(head(200, [("ETag", "\"a\""), ("Content-Length", "1000")]))
    #expect(action == .writeFromStart(restartReason: .rangesIgnored))
  }

  @Test func a200ToAFreshRequestIsNoRestart() {
    var machine = TransferStateMachine(offset: 0, validators: Validators(), totalLength: nil)
    _ = machine.start()
    #expect(machine.didReceiveHead(head(200)) == .writeFromStart(restartReason: nil))
  }

  @Test func a416StatingOurLengthMeansThePartIsWhole() {
    var machine = TransferStateMachine(
      offset: 1000, validators: Validators(etag: "\"a\""), totalLength: nil)
    _ = machine.start()
    let action = machine.didReceiveHead(head(416, [("Content-Range", "bytes */1000")]))
    #expect(action == .discardThenVerify)
    #expect(machine.totalLength == 1000)
  }

  @Test func a416StatingAnotherLengthStartsOverWithoutWritingItsBody() {
    var machine = TransferStateMachine(
      offset: 1000, validators: Validators(etag: "\"a\""), totalLength: nil)
    _ = machine.start()
    let action = machine.didReceiveHead(head(416, [("Content-Range", "bytes */500")]))
    #expect(action == .discardThenRestart(.lengthChanged))
  }

  @Test func errorStatusesFail() {
    for status in [404, 410, 403, 500, 503, 204] {
      var machine = TransferStateMachine(offset: 0, validators: Validators(), totalLength: nil)
      _ = machine.start()
      #expect(machine.didReceiveHead(head(status)) == .fail(status: status))
    }
  }

  @Test func startOversAreBounded() {
    var machine = TransferStateMachine(
      offset: 100, validators: Validators(etag: "\"a\""), totalLength: 1000)
    var actions: [TransferStateMachine.HeadAction] = []
    for _ in 0...TransferStateMachine.maximumRestarts {
      _ = machine.start()
      actions.append(machine.didReceiveHead(head(206, [("Content-Range", "bytes 0-999/1000")])))
    }
    #expect(actions.dropLast().allSatisfy { $0 == .discardThenRestart(.rangeMismatch) })
    #expect(
      actions.last
        == .failProtocol("the server kept answering with other bytes than the range asked for"))
  }

  @Test func writtenBytesAdvanceTheOffset() {
    var machine = TransferStateMachine(offset: 0, validators: Validators(), totalLength: nil)
    _ = machine.start()
    _ = machine.didReceiveHead(head(200, [("Content-Length", "10")]))
    machine.didWrite(4)
    machine.didWrite(6)
    #expect(machine.offset == 10)
  }
}
