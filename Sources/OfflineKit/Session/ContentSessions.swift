import Foundation
import OfflineHTTP
import Synchronization

/// The sessions of a manager's contents: one per content, kept while its URL and request
/// options stay the same, so a repair, a key renewal or a remote check sends the cookies
/// the content's download was given (a cookie its playlist's response set included), and
/// every content shares the queue's rate budget.
///
/// Holds the most recently used ``capacity`` sessions; an older one is made again when
/// asked for (without the cookies its responses set). Safe to call from any thread.
final class ContentSessions: Sendable {
  /// How many sessions are kept.
  static let capacity = 256

  /// The HTTP transport every session uses.
  let transport: any HTTPTransporting
  /// The cap over every content's requests together (the queue's rate limit).
  let queueBudget: RateLimiter
  /// The clock the sessions' retries sleep on.
  let clock: any Timekeeping
  private let kept = Mutex<Kept>(Kept())

  private struct Kept {
    var sessions: [String: ContentSession] = [:]
    /// Content ids, least recently used first.
    var order: [String] = []
  }

  init(transport: any HTTPTransporting, queueBudget: RateLimiter, clock: any Timekeeping) {
    self.transport = transport
    self.queueBudget = queueBudget
    self.clock = clock
  }

  /// The session of content `id` at `url` with `options`: the one kept when it has the same
  /// URL and options, else a new one (kept from now on).
  func session(id: String, url: URL, options: RequestOptions, retry: RetryPolicy)
    -> ContentSession
  {
    kept.withLock { kept in
      if let session = kept.sessions[id], session.url == url,
        session.requestOptions == options.scopingSecrets(to: url), session.retry == retry
      {
        kept.order.removeAll { $0 == id }
        kept.order.append(id)
        return session
      }
      let session = ContentSession(
        url: url, transport: transport, requestOptions: options,
        sharedRateLimiters: [queueBudget], retry: retry, clock: clock)
      if kept.sessions.updateValue(session, forKey: id) != nil {
        kept.order.removeAll { $0 == id }
      }
      kept.order.append(id)
      if kept.order.count > Self.capacity {
        kept.sessions[kept.order.removeFirst()] = nil
      }
      return session
    }
  }

  /// Drops the session of content `id` (deleted, canceled, forgotten).
  func forget(id: String) {
    kept.withLock { kept in
      if kept.sessions.removeValue(forKey: id) != nil { kept.order.removeAll { $0 == id } }
    }
  }
}
