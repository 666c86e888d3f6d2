import Foundation
import OfflineHTTP

/// One content's way to its origin: the transport, the request options (their secrets
/// scoped to the content's URL, checked once), the cookie jar, the rate budgets and the
/// retry policy of its small fetches, and the few fetches everything needs.
///
/// Made once per content by whoever downloads, repairs or describes it (the manager's queue,
/// `offline get`, the cache, `offline info`), and handed down: every request of the content
/// (a file and its ranges, a playlist or manifest, a segment, a key, a repair's chunk, a
/// remote check's `HEAD`) goes through it, so each one sends the same headers, credentials
/// and cookies (a cookie one response sets goes with the next request), and all of them
/// share one rate budget.
///
/// A value: copies share the jar and the budgets.
package struct ContentSession: Sendable {
  /// The content's URL: the request options' secrets go to its origin (unless the options
  /// name another with `secretsOrigin`) and to their trusted origins only.
  package let url: URL
  /// The HTTP transport.
  package let transport: any HTTPTransporting
  /// What every request sends, its secrets scoped to ``url``.
  package let requestOptions: RequestOptions
  /// The content's cookies: those of `RequestOptions.cookieFile` and those its responses set.
  private let cookieJar: CookieJar
  /// The budgets every body is paced against: the options' own `rateLimit` and the shared
  /// ones (a queue's).
  private let rateLimiters: [RateLimiter]
  /// The tightest cap over this content's bodies now (its own, or a shared one's), in bytes
  /// per second; nil when none applies. A shared cap may change while a download runs.
  package var tightestRate: Double? {
    rateLimiters.compactMap { $0.rate.map { Double($0.bytesPerSecond) } }.min()
  }

  /// When a small fetch (playlist, manifest, key) is tried again, and how a stream's
  /// pieces retry inside one transfer.
  package let retry: RetryPolicy
  /// Whether a host that cannot be resolved or connected to (directly or through the proxy)
  /// is tried again like other transient failures; false answers at once (`offline info`,
  /// where a person waits). A 503 or a cut is tried again either way.
  package let retriesUnreachable: Bool
  /// The clock retries sleep on and `Retry-After` dates are read against.
  package let clock: any Timekeeping
  /// What is wrong with the request options, found once when the session was made.
  private let optionsProblem: RequestOptionError?
  /// The options as given, before their secrets were scoped to ``url``.
  private let givenOptions: RequestOptions

  /// Creates the session of the content at `url`.
  ///
  /// - Parameters:
  ///   - url: The content's URL (a file, a playlist, a manifest).
  ///   - transport: The HTTP transport.
  ///   - requestOptions: What every request sends; checked here, reported by
  ///     ``checkOptions(destination:)``. Its `rateLimit` caps the whole content.
  ///   - sharedRateLimiters: Budgets shared with other contents, to cap them together.
  ///   - retry: When a small fetch is tried again.
  ///   - retriesUnreachable: See ``retriesUnreachable``.
  ///   - clock: See ``clock``.
  package init(
    url: URL, transport: any HTTPTransporting, requestOptions: RequestOptions = RequestOptions(),
    sharedRateLimiters: [RateLimiter] = [], retry: RetryPolicy = RetryPolicy(),
    retriesUnreachable: Bool = true, clock: any Timekeeping = SystemClock.shared
  ) {
    self.url = url
    self.transport = transport
    self.givenOptions = requestOptions
    self.requestOptions = requestOptions.scopingSecrets(to: url)
    self.cookieJar = CookieJar(file: requestOptions.cookieFile)
    self.rateLimiters = RateLimiter.budgets(for: requestOptions) + sharedRateLimiters
    self.retry = retry
    self.retriesUnreachable = retriesUnreachable
    self.clock = clock
    do {
      try requestOptions.validate()
      optionsProblem = nil
    } catch {
      optionsProblem = error
    }
  }

  /// This session over another transport (one that watches the answers): the same options,
  /// cookies and budgets.
  package func reaching(through transport: any HTTPTransporting) -> ContentSession {
    ContentSession(copying: self, url: url, transport: transport)
  }

  /// This session for a fresh URL of the same content (a signed URL that expired): the same
  /// cookies and budgets, the options' secrets scoped to the fresh URL's origin (unless
  /// they name one).
  package func moved(to url: URL) -> ContentSession {
    ContentSession(copying: self, url: url, transport: transport)
  }

  private init(copying other: ContentSession, url: URL, transport: any HTTPTransporting) {
    self.url = url
    self.transport = transport
    givenOptions = other.givenOptions
    requestOptions = url == other.url ? other.requestOptions : givenOptions.scopingSecrets(to: url)
    cookieJar = other.cookieJar
    rateLimiters = other.rateLimiters
    retry = other.retry
    retriesUnreachable = other.retriesUnreachable
    clock = other.clock
    optionsProblem = other.optionsProblem
  }

  /// Fails when the request options are not usable, before anything is fetched.
  ///
  /// - Throws: ``Transfer/Error/Code-swift.struct/invalidRequestOptions`` naming
  ///   `destination`.
  package func checkOptions(destination: String) throws(Transfer.Error) {
    if let optionsProblem {
      throw Transfer.Error(
        .invalidRequestOptions(optionsProblem), url: url, destination: destination)
    }
  }

  /// A request for `url` with the content's options, cookies and budgets.
  package func request(
    _ url: URL, method: HTTPRequest.Method = .get, headers: HTTPHeaders = HTTPHeaders()
  ) -> HTTPRequest {
    HTTPRequest(
      url: url, method: method, headers: headers, options: requestOptions, cookieJar: cookieJar,
      rateLimiters: rateLimiters)
  }

  /// Sends `request` (made by ``request(_:method:headers:)``) and streams its body to
  /// `delegate`.
  package func perform(_ request: HTTPRequest, delegate: any HTTPResponseDelegate)
    async throws(HTTPError) -> HTTPResponseHead
  {
    try await transport.perform(request, delegate: delegate)
  }
}
