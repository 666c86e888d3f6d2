import Foundation
import OfflineHTTP
import Synchronization

/// Fetches a small resource (a playlist, a key) into memory, refusing anything larger than a
/// cap so a hostile server cannot fill the memory.
struct MemoryFetch: Sendable {
  let transport: any HTTPTransporting
  let retry: RetryPolicy
  /// What every request sends; the content's cookies.
  var requestOptions = RequestOptions()
  var cookieJar: CookieJar?
  /// The content's rate budgets.
  var rateLimiters: [RateLimiter] = []
  /// Whether a host that cannot be resolved or connected to (directly or through the
  /// proxy) is tried again like other transient failures; false answers at once (`offline
  /// info`, where a person waits for the answer). A 503 or a cut is tried again either way.
  var retriesUnreachable = true
  /// The clock waits between tries sleep on and `Retry-After` dates are read against.
  var clock: any Timekeeping = SystemClock.shared

  /// The body of `url`, retried on transient failures.
  ///
  /// - Throws: ``Transfer/Error`` for network failures, HTTP error statuses and bodies over
  ///   `limit` bytes.
  func data(from url: URL, limit: Int, destination: String) async throws(Transfer.Error) -> Data {
    var failures = 0
    while true {
      do {
        return try await once(url, limit: limit, destination: destination)
      } catch {
        failures += 1
        guard error.isTransient, retriesUnreachable || !error.isUnreachable,
          failures < retry.maximumAttempts, !Task.isCancelled
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

  private func once(_ url: URL, limit: Int, destination: String) async throws(Transfer.Error)
    -> Data
  {
    let sink = Collector(limit: limit)
    let head: HTTPResponseHead
    do {
      head = try await transport.perform(
        HTTPRequest(
          url: url, options: requestOptions, cookieJar: cookieJar, rateLimiters: rateLimiters),
        delegate: sink)
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
}

/// Collects a body in memory up to a limit.
///
/// `@unchecked Sendable`: the transport calls it on one thread, and the caller reads `data`
/// only after `perform` returned.
private final class Collector: HTTPResponseDelegate, @unchecked Sendable {
  struct TooLarge: Error {}
  let limit: Int
  var data = Data()

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

extension Transfer.Error {
  /// Whether the host could not be resolved or connected to: no server answered at all.
  var isUnreachable: Bool {
    guard case .network(let error) = kind else { return false }
    return error.kind == .cannotResolveHost || error.kind == .cannotConnect
  }
}
