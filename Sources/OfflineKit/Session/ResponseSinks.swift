import Foundation
import OfflineHTTP

/// Collects a 200's body in memory up to a limit; more fails the transfer.
///
/// `@unchecked Sendable`: the transport calls it on one thread, and the caller reads `data`
/// only after `perform` returned.
final class MemorySink: HTTPResponseDelegate, @unchecked Sendable {
  struct TooLarge: Error {}
  let limit: Int
  private(set) var data = Data()

  init(limit: Int) {
    self.limit = limit
  }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    head.status == 200 ? .receive : .discard
  }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    guard data.count + bytes.count <= limit else { throw TooLarge() }
    data.append(contentsOf: bytes)
  }
}

/// Takes no body (a `HEAD` has none).
///
/// `@unchecked Sendable`: it holds nothing.
final class HeadOnlySink: HTTPResponseDelegate, @unchecked Sendable {
  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition { .discard }
  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {}
}

/// Writes the body of a response it accepts into a descriptor from offset 0, refusing
/// more than `limit` bytes; a response it does not accept is stopped at its head.
///
/// `@unchecked Sendable`: the transport calls it from one thread at a time, and the caller
/// reads its members only after `perform` returned.
final class DescriptorSink: HTTPResponseDelegate, @unchecked Sendable {
  struct Overrun: Error {}
  let descriptor: Int32
  let limit: Int64
  let accepting: @Sendable (HTTPResponseHead) -> Bool
  private(set) var head: HTTPResponseHead?
  private(set) var accepted = false
  private(set) var written: Int64 = 0
  private(set) var overran = false

  init(descriptor: Int32, limit: Int64, accepting: @escaping @Sendable (HTTPResponseHead) -> Bool) {
    self.descriptor = descriptor
    self.limit = limit
    self.accepting = accepting
  }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    self.head = head
    accepted = accepting(head)
    return accepted ? .receive : .stop
  }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    guard written + Int64(bytes.count) <= limit else {
      overran = true
      throw Overrun()
    }
    try FileSteps.writeAll(bytes, at: written, to: descriptor)
    written += Int64(bytes.count)
  }
}
