import Foundation
import OfflineHTTP

extension SegmentedTransfer {
  /// What the origin answered a request for the file's first byte.
  enum ProbeAnswer {
    /// The byte, with the file's length and validators.
    case ranges(total: Int64, validators: Validators, head: HTTPResponseHead)
    /// A success without the range: the server does not serve ranges (its body unread).
    case whole(HTTPResponseHead)
  }

  /// One byte, to learn the length, the validator and whether ranges are served; nil for
  /// an answer that is neither (a 416, a redirect not followed).
  func probe() async throws(Transfer.Error) -> ProbeAnswer? {
    var request = transfer.request()
    request.headers.add(name: "Range", value: "bytes=0-0")
    let sink = ProbeSink()
    let head: HTTPResponseHead
    do throws(HTTPError) {
      head = try await transfer.transport.perform(request, delegate: sink)
    } catch {
      if error.kind == .canceled { throw transfer.failure(.canceled) }
      throw transfer.failure(.network(error))
    }
    if transfer.configuration.stopsAtMetalink, let document = MetalinkPlan.describing(head) {
      throw transfer.failure(.describedByMetalink(document))
    }
    guard head.status == 206, let header = head.headers["Content-Range"],
      let total = ContentRange(header)?.completeLength
    else {
      if head.status >= 400, head.status != 416 {
        throw transfer.failure(.status(head.status, retryAfter: nil))
      }
      return (200..<300).contains(head.status) ? .whole(head) : nil
    }
    return .ranges(total: total, validators: Validators(head), head: head)
  }
}

/// Reads a probe's head and skips its one-byte body.
private final class ProbeSink: HTTPResponseDelegate, @unchecked Sendable {
  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    head.status == 206 ? .discard : .stop
  }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {}
}
