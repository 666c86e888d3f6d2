import Foundation
import OfflineHTTP

extension ContentSession {
  /// The body of `url` in memory (a playlist, a manifest, a key), tried again on transient
  /// failures by ``retry``; a body larger than `limit` bytes is refused, so a hostile server
  /// cannot fill the memory. `maximumAttempts`, when given, caps the tries below
  /// ``retry``'s (a playlist another source can serve).
  ///
  /// - Throws: ``Transfer/Error`` naming `destination`: the network failure, the status
  ///   other than 200, `invalidMedia` for a body over `limit`, or `canceled`.
  package func data(
    from url: URL, limit: Int, destination: String, maximumAttempts: Int? = nil
  ) async throws(Transfer.Error) -> Data {
    var failures = 0
    while true {
      do {
        return try await dataOnce(from: url, limit: limit, destination: destination)
      } catch {
        failures += 1
        guard error.isTransient, retriesUnreachable || !error.isUnreachable,
          failures < min(retry.maximumAttempts, maximumAttempts ?? .max), !Task.isCancelled
        else {
          throw error
        }
        let delay = retry.delay(afterFailures: failures, retryAfter: error.retryAfter)
        do {
          try await clock.sleep(for: delay)
        } catch {
          throw Transfer.Error(.canceled, url: url, destination: destination)
        }
      }
    }
  }

  private func dataOnce(from url: URL, limit: Int, destination: String)
    async throws(Transfer.Error) -> Data
  {
    let sink = MemorySink(limit: limit)
    let head: HTTPResponseHead
    do {
      head = try await perform(request(url), delegate: sink)
    } catch {
      if error.kind == .canceled {
        throw Transfer.Error(.canceled, url: url, destination: destination)
      }
      if error.kind == .delegateFailed {
        throw Transfer.Error(
          .invalidMedia("\(url.redactedForDisplay) is larger than \(limit) bytes"), url: url,
          destination: destination)
      }
      throw Transfer.Error(.network(error), url: url, destination: destination)
    }
    guard head.status == 200 else {
      let retryAfter = head.headers["Retry-After"].flatMap {
        RetryAfter.delay(from: $0, now: clock.now)
      }
      throw Transfer.Error(
        .status(head.status, retryAfter: retryAfter), url: url, destination: destination)
    }
    return sink.data
  }

  /// The head of `url` from a `HEAD` request; no body is read.
  ///
  /// - Throws: `HTTPError` when no answer came.
  package func head(of url: URL) async throws(HTTPError) -> HTTPResponseHead {
    try await perform(request(url, method: .head), delegate: HeadOnlySink())
  }

  /// What ``body(of:into:limit:accepting:)`` received.
  package struct DescriptorFetch: Sendable {
    /// The response head, or why none came or the transfer failed (an overrun is a
    /// failure too).
    package var answer: Result<HTTPResponseHead, HTTPError>
    /// The response head, when one came (also when the transfer failed after it).
    package var head: HTTPResponseHead?
    /// Whether the head was accepted and its body written.
    package var accepted: Bool
    /// The body bytes written, from offset 0 of the descriptor.
    package var written: Int64
    /// Whether the body ran past the limit (the transfer was stopped there).
    package var overran: Bool
  }

  /// Sends `request` and writes the body of a response `accepting` takes into `descriptor`
  /// from offset 0, at most `limit` bytes (more stops the transfer); a response it refuses
  /// is stopped at its head, so it costs no body.
  package func body(
    of request: HTTPRequest, into descriptor: Int32, limit: Int64,
    accepting: @escaping @Sendable (HTTPResponseHead) -> Bool
  ) async -> DescriptorFetch {
    let sink = DescriptorSink(descriptor: descriptor, limit: limit, accepting: accepting)
    do {
      let head = try await perform(request, delegate: sink)
      return DescriptorFetch(
        answer: .success(head), head: head, accepted: sink.accepted, written: sink.written,
        overran: false)
    } catch {
      return DescriptorFetch(
        answer: .failure(error), head: sink.head, accepted: sink.accepted, written: sink.written,
        overran: sink.overran)
    }
  }
}

extension Transfer.Error {
  /// Whether the host could not be resolved or connected to: no server answered at all.
  var isUnreachable: Bool {
    guard case .network(let error) = kind else { return false }
    return error.kind == .cannotResolveHost || error.kind == .cannotConnect
  }
}
