import Foundation
import OfflineHTTP

/// How the manager gets a fresh URL for a content whose URL stopped working: a signed URL
/// (S3, CloudFront, an nginx `secure_link`) that expired in the middle of a long download.
///
/// When a request of a content is answered 401, 403 or 410 (or, before a request, once the
/// URL's expiry the app gave has passed: ``OfflineSource/urlExpiresAt``), the manager asks ``fresh`` for
/// a new URL (at most ``timeout``) and goes on with it: the journal's validators go along,
/// so a resume asks the new URL for the bytes still missing with `If-Range`, and the bytes
/// on disk are kept when it serves the same resource (the same strong `ETag`, or the same
/// `Last-Modified` and length); otherwise the file starts over and its event says why
/// (`resourceChanged`). A hook that throws, takes longer than ``timeout`` or gives something
/// that is not an http or https URL suspends the content with
/// ``OfflineError/Code/urlRefreshFailed``, its partial data kept. A content
/// whose fresh URLs keep being refused is refreshed at most ``maximumInARow`` times without
/// progress, then fails with the status.
///
/// ```swift
/// let refresh = URLRefresh(timeout: .seconds(10)) { request in
///   try await api.signedURL(forContent: request.contentID)
/// }
/// let manager = try OfflineManager(
///   directory: storeURL, configuration: .init(urlRefresh: refresh))
/// ```
///
/// The hook runs on a task of its own, once per refused download (never two at once for one
/// content); it is cancelled when the timeout passes or the manager stops.
public struct URLRefresh: Sendable {
  /// What the hook is asked about.
  public struct Request: Sendable, Equatable {
    /// The content's id.
    public var contentID: String
    /// Its URL that stopped working.
    public var url: URL
    /// The status that answered it; nil when it was not tried because the expiry the app
    /// gave (``OfflineSource/urlExpiresAt``) had passed.
    public var status: Int?
  }

  /// Gives a fresh URL for a content.
  public typealias Hook = @Sendable (Request) async throws -> URL

  /// The longest the hook may take.
  public var timeout: Duration
  /// Refreshes of one content in a row without a byte arriving in between, at most.
  public var maximumInARow: Int
  /// The hook.
  public var fresh: Hook

  /// The statuses that ask for a fresh URL.
  public static let statuses: Set<Int> = [401, 403, 410]

  /// Creates a refresh policy.
  public init(
    timeout: Duration = .seconds(30), maximumInARow: Int = 3, _ fresh: @escaping Hook
  ) {
    self.timeout = timeout
    self.maximumInARow = max(1, maximumInARow)
    self.fresh = fresh
  }

  /// Asks the hook, bounded by ``timeout`` of `clock`'s time: the fresh URL, or why there
  /// is none (a phrase without the URL's query, which may hold a token).
  package func ask(_ request: Request, clock: any Timekeeping) async -> Result<
    URL, URLRefreshProblem
  > {
    let hook = fresh
    let timeout = timeout
    let answer = await withTaskGroup(of: Result<URL, URLRefreshProblem>?.self) { group in
      group.addTask {
        do {
          return .success(try await hook(request))
        } catch let problem as URLRefreshProblem {
          return .failure(problem)  // said by the hook's owner (the CLI's refresh command)
        } catch {
          return .failure(URLRefreshProblem("the refresh hook failed: \(error)"))
        }
      }
      group.addTask {
        try? await clock.sleep(for: timeout)
        return Task.isCancelled
          ? nil : .failure(URLRefreshProblem("the refresh hook took longer than \(timeout)"))
      }
      defer { group.cancelAll() }
      for await result in group {
        if let result { return result }
      }
      return .failure(URLRefreshProblem("the refresh was cancelled"))
    }
    return answer.flatMap { url in
      url.isHTTPWithHost
        ? .success(url)
        : .failure(
          URLRefreshProblem(
            "the refresh hook gave '\(url.redactedForDisplay.prefix(200))', not an http or https URL"
          ))
    }
  }
}

/// Why a refresh gave no URL, as a phrase without the URL's query. A hook may throw one to
/// say why in its own words.
package struct URLRefreshProblem: Error, Sendable {
  /// The phrase.
  package let reason: String
  /// Creates the reason `reason`.
  package init(_ reason: String) { self.reason = reason }
}
