// libcurl is linked on Linux only (Package.swift).
#if canImport(CCurl)
  import CCurl
  import Foundation
  import OfflineLocks
  import Synchronization

  /// One request in flight on a ``CurlMultiLoop``: its easy handle, the response being parsed,
  /// the redirects taken so far, and the continuation to resume when it ends.
  ///
  /// `@unchecked Sendable` is sound because the caller sets `continuation` before submitting
  /// the call, and from submission on only the loop's thread reads or writes any other member
  /// (libcurl runs the callbacks below on that thread too), except `continuation`, which only
  /// the call's ``CurlDelivery`` queue touches from then on (it resumes it).
  final class CurlCall: @unchecked Sendable {
    private static let nextID = IDCounter()

    let id: UInt64
    /// The request; its secrets are not sent once a redirect leaves the origin.
    let request: HTTPRequest
    /// Set from any thread when the awaiting task is cancelled; the loop checks it before
    /// starting the call, so a cancellation that comes first is never missed.
    let cancelRequested = Atomic<Bool>(false)
    /// Hands the response to the delegate off the loop's thread.
    let delivery: CurlDelivery
    let configuration: CurlTransport.Configuration
    var continuation: CheckedContinuation<Result<HTTPResponseHead, HTTPError>, Never>?

    private(set) var currentURL: URL
    /// The proxy for `currentURL`, nil to connect directly; see ``chooseProxy()``.
    private(set) var currentProxy: Proxy?
    private(set) var redirectCount = 0
    private(set) var easy: UnsafeMutableRawPointer?
    /// The header lines of the easy handle, freed with it.
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// What the hops so far allow the current one to carry (see ``setRequestOptions(_:)``).
    private(set) var secretHops: SecretHops
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    // The response being parsed.
    private var version = "HTTP/1.1"
    private var fields: [HTTPHeaders.Field] = []
    private(set) var receivedAnyHeader = false
    private(set) var finalHead: HTTPResponseHead?
    private(set) var redirectLocation: String?
    private(set) var stoppedByDelegate = false
    private(set) var protocolError: String?
    /// Bytes of header lines received on this handle.
    private var headBytes = 0
    /// Set when the head grew past ``maximumHeadBytes`` and was refused.
    private(set) var headTooLarge = false
    /// Set by the loop when it tries again after a head too large; the next handle takes a
    /// fresh connection, and a second such head is the end.
    var retriedTooLargeHead = false
    /// When a request paused by its rate limiters may receive again; set in the write
    /// callback, read and cleared by the loop.
    var rateResumeAt: ContinuousClock.Instant?
    /// When the loop last saw bytes taken (a header line or body bytes); what the stall
    /// watch counts from (see ``stallDeadline``).
    var lastReceivedAt: ContinuousClock.Instant?
    /// Set by the callbacks when they take bytes; the loop turns it into ``lastReceivedAt``
    /// once a turn, so the clock is read per turn, not per 16 KiB callback.
    var receivedSinceLastTurn = false
    /// Set when the write callback paused because the delivery has not caught up; cleared
    /// when the loop lets the call receive again.
    var pausedForDelivery = false

    /// The most bytes of header lines taken for one request (redirects and 1xx included);
    /// beyond it the head is refused as too large. libcurl 7.88 limits only each line
    /// (100 KB); newer ones the whole head (300 KB).
    static let maximumHeadBytes = 256 << 10

    /// - Parameter wake: Asks the loop to let the call with this id receive again, after
    ///   its delivery paused it; called from the delivery queue.
    init(
      request: HTTPRequest, delegate: any HTTPResponseDelegate,
      configuration: CurlTransport.Configuration, wake: @escaping @Sendable (UInt64) -> Void
    ) {
      let id = Self.nextID.next()
      self.id = id
      self.request = request
      self.delivery = CurlDelivery(delegate: delegate) { wake(id) }
      self.configuration = configuration
      self.currentURL = request.url
      self.secretHops = SecretHops(request)
      self.priority = RatePriorityHold(request)
      self.rateTurn = RateTurn(request)
      errorBuffer.initialize(to: 0)
    }

    /// The budgets this request goes first in while it lives, if it has priority.
    private let priority: RatePriorityHold?
    /// Its place among the requests waiting for its budgets, if it carries any.
    private let rateTurn: RateTurn?

    deinit {
      releaseEasy()
      errorBuffer.deallocate()
    }

    /// At most what a request paced by rate limiters reads at once. When the write callback
    /// pauses, libcurl keeps the rest of what it read and copies it again at every pause; a
    /// paced request pauses about once a read, so with a 512 KiB buffer most of its CPU went
    /// to those copies. 16 KiB is libcurl's default, plenty for any rate a cap sets.
    static let pacedBufferSize = 16 << 10

    /// The receive buffer for `request`: `configured`, but at most the request's own
    /// ``HTTPRequest/receiveBufferSize`` and at most ``pacedBufferSize`` when rate limiters
    /// pace it; never below libcurl's minimum of 1 KiB.
    static func receiveBufferSize(for request: HTTPRequest, configured: Int) -> Int {
      var size = min(configured, request.receiveBufferSize ?? configured)
      if !request.rateLimiters.isEmpty { size = min(size, pacedBufferSize) }
      return max(size, 1 << 10)
    }

    /// libcurl's message for the last failure, if it wrote one.
    var curlMessage: String? {
      let text = String(cString: errorBuffer)
      return text.isEmpty ? nil : text
    }

    /// Makes a fresh easy handle for `currentURL`. Called on the loop's thread.
    func makeEasy() -> UnsafeMutableRawPointer? {
      releaseEasy()
      resetResponse()
      guard let handle = curl_easy_init() else { return nil }
      easy = handle
      let context = Unmanaged.passUnretained(self).toOpaque()
      let config = configuration
      _ = ok_easy_setopt_str(handle, CURLOPT_URL, currentURL.absoluteString)
      _ = ok_easy_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https")
      _ = ok_easy_setopt_str(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
      _ = ok_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
      _ = ok_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
      _ = ok_easy_setopt_long(handle, CURLOPT_HTTP_CONTENT_DECODING, 0)
      _ = ok_easy_setopt_long(
        handle, CURLOPT_BUFFERSIZE,
        Self.receiveBufferSize(for: request, configured: config.receiveBufferSize))
      _ = ok_easy_setopt_long(
        handle, CURLOPT_CONNECTTIMEOUT_MS, config.connectTimeout.inMilliseconds)
      // libcurl's own stall check, for a response that has not begun: it reads a speed
      // averaged over about five seconds, so after a burst of bytes it fired about six
      // seconds late; once a response begins, the loop's watch (``stallDeadline``) ends the
      // stall on time. libcurl counts in whole seconds: round up, so it is never shorter.
      _ = ok_easy_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
      _ = ok_easy_setopt_long(
        handle, CURLOPT_LOW_SPEED_TIME, max(1, (config.stallTimeout.inMilliseconds + 999) / 1000))
      _ = ok_easy_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1)
      if retriedTooLargeHead {
        _ = ok_easy_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1)
      }
      let httpVersion = config.allowsHTTP2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1
      _ = ok_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(httpVersion))
      // Waiting for a connection to multiplex on only pays where one can (HTTP/2, offered
      // over TLS). On plain http libcurl would park the request ("pending") until the other
      // transfer to the host ended, whenever that one had no response head yet.
      if config.allowsHTTP2, currentURL.scheme?.lowercased() == "https" {
        _ = ok_easy_setopt_long(handle, CURLOPT_PIPEWAIT, 1)
      }
      _ = ok_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
      _ = ok_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
      setTrust(handle)
      setProxy(handle)
      if request.method == .head {
        _ = ok_easy_setopt_long(handle, CURLOPT_NOBODY, 1)
      }
      setRequestOptions(handle)
      _ = ok_easy_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
      _ = ok_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, CurlCall.writeCallback)
      _ = ok_easy_setopt_ptr(handle, CURLOPT_WRITEDATA, context)
      _ = ok_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, CurlCall.headerCallback)
      _ = ok_easy_setopt_ptr(handle, CURLOPT_HEADERDATA, context)
      return handle
    }

    /// Frees the easy handle and its header list. The caller removed it from the multi handle.
    func releaseEasy() {
      if let easy { curl_easy_cleanup(easy) }
      easy = nil
      if let headerList { curl_slist_free_all(headerList) }
      headerList = nil
    }

    /// Moves to the redirect target, or throws when the policy refuses it.
    func followRedirect() throws(HTTPError) {
      guard let location = redirectLocation else {
        throw HTTPError(.protocolViolation, url: currentURL, detail: "redirect without Location")
      }
      let next = try configuration.redirects.nextURL(
        from: currentURL, location: location, hops: redirectCount)
      secretHops.redirected(to: next)
      currentURL = next
      redirectCount += 1
      try chooseProxy()
    }

    /// Chooses the proxy for `currentURL`: at the start and after each redirect.
    ///
    /// - Throws: ``HTTPError/Code-swift.struct/invalidProxy`` when the setting that applies
    ///   is not a proxy URL.
    func chooseProxy() throws(HTTPError) {
      do {
        var choice = configuration.proxyChoice
        if let proxy = request.options.proxy { choice.proxy = proxy }
        if let hosts = request.options.noProxy {
          choice.noProxy = NoProxyList(parsing: hosts.joined(separator: ","))
        }
        currentProxy = try choice.proxy(for: currentURL)
      } catch {
        throw HTTPError(.invalidProxy(error.description), url: currentURL)
      }
    }

    /// The proxy chosen for `currentURL`, or an empty string, which tells libcurl "no proxy"
    /// and keeps it from reading `http_proxy` and the others itself; an empty
    /// `CURLOPT_NOPROXY` likewise keeps it from reading `no_proxy`, already applied.
    private func setProxy(_ handle: UnsafeMutableRawPointer) {
      _ = ok_easy_setopt_str(handle, CURLOPT_PROXY, currentProxy?.url.absoluteString ?? "")
      _ = ok_easy_setopt_str(handle, CURLOPT_NOPROXY, "")
      // The proxy's answer to CONNECT ("200 Connection established") is not the origin's:
      // libcurl hands its head to the header callback too, with no response code yet, and
      // it was taken for the response ("answered 0").
      _ = ok_easy_setopt_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
    }

    /// The CA file and folder for the origin and for an https proxy; a location left to the
    /// system keeps libcurl's built-in default, `none` clears it.
    private func setTrust(_ handle: UnsafeMutableRawPointer) {
      func set(_ option: CURLoption, _ location: TrustedCAs.Location) {
        switch location {
        case .system: break
        case .none: _ = ok_easy_setopt_str(handle, option, nil)
        case .path(let path): _ = ok_easy_setopt_str(handle, option, path)
        }
      }
      let trust = TrustedCAs(
        caFile: request.options.caFile ?? configuration.trustedCAFile,
        environment: configuration.environment)
      set(CURLOPT_CAINFO, trust.file)
      set(CURLOPT_CAPATH, trust.folder)
      set(CURLOPT_PROXY_CAINFO, trust.file)
      set(CURLOPT_PROXY_CAPATH, trust.folder)
    }

    private func resetResponse() {
      version = "HTTP/1.1"
      fields = []
      receivedAnyHeader = false
      finalHead = nil
      redirectLocation = nil
      headBytes = 0
      headTooLarge = false
      rateResumeAt = nil
      lastReceivedAt = nil
      receivedSinceLastTurn = false
      pausedForDelivery = false
      errorBuffer[0] = 0
    }

    // MARK: - Callbacks (on the loop's thread)

    private func didReceiveHeaderLine(_ line: Substring, length: Int) -> Bool {
      receivedAnyHeader = true
      receivedSinceLastTurn = true
      if finalHead != nil || redirectLocation != nil { return true }  // trailers
      headBytes += length
      if headBytes > Self.maximumHeadBytes {
        headTooLarge = true
        return false
      }
      if line.hasPrefix("HTTP/") {
        version = String(line.prefix { $0 != " " })
        fields = []
        return true
      }
      if line.isEmpty {
        return didReceiveEndOfHead()
      }
      guard let colon = line.firstIndex(of: ":") else { return true }  // obsolete folding
      let name = line[..<colon].trimmingHTTPWhitespace()
      let value = line[line.index(after: colon)...].trimmingHTTPWhitespace()
      fields.append(HTTPHeaders.Field(name: name, value: value))
      return true
    }

    private func didReceiveEndOfHead() -> Bool {
      var status = 0
      _ = ok_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
      if (100..<200).contains(status) {
        fields = []
        return true
      }
      let headers = HTTPHeaders(fields)
      if RedirectPolicy.redirectStatuses.contains(status), let location = headers["Location"] {
        redirectLocation = location
        return true
      }
      let head = HTTPResponseHead(
        status: status, headers: headers, url: currentURL, version: version)
      finalHead = head
      delivery.deliverHead(head)
      return true
    }

    /// What the write callback returns for `bytes`: their count when taken, 0 to stop, or
    /// `CURL_WRITEFUNC_PAUSE` while the delegate has not caught up.
    private func didReceiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
      if redirectLocation != nil { return bytes.count }
      guard finalHead != nil else {
        protocolError = "body before a complete head"
        return 0
      }
      let limiters = request.rateLimiters
      if let rateTurn {
        let now = ContinuousClock.Instant.now
        let wait = rateTurn.pause(at: now)
        if wait > .zero {
          // libcurl keeps these bytes and gives them again once the loop unpauses.
          rateResumeAt = now + wait
          return ok_writefunc_pause()
        }
      }
      switch delivery.take(bytes) {
      case .taken:
        receivedSinceLastTurn = true
        if !limiters.isEmpty {
          let now = ContinuousClock.Instant.now
          for limiter in limiters { limiter.charge(bytes.count, at: now) }
        }
        return bytes.count
      case .pause:
        pausedForDelivery = true
        return ok_writefunc_pause()
      case .stop:
        if delivery.stopped { stoppedByDelegate = true }
        return 0
      }
    }

    private static let headerCallback: ok_data_callback = { pointer, size, count, context in
      let length = size * count
      guard let pointer, let context else { return 0 }
      let call = Unmanaged<CurlCall>.fromOpaque(context).takeUnretainedValue()
      let raw = UnsafeRawBufferPointer(start: pointer, count: length)
      var line = Substring(decoding: raw, as: UTF8.self)
      while line.last == "\n" || line.last == "\r" || line.last == "\r\n" { line = line.dropLast() }
      return call.didReceiveHeaderLine(line, length: length) ? length : 0
    }

    private static let writeCallback: ok_data_callback = { pointer, size, count, context in
      let length = size * count
      guard let context else { return 0 }
      let call = Unmanaged<CurlCall>.fromOpaque(context).takeUnretainedValue()
      return call.didReceiveBody(UnsafeRawBufferPointer(start: pointer, count: length))
    }
  }

  /// Hands out increasing identifiers from any thread.
  private final class IDCounter: Sendable {
    private let value = Locked<UInt64>(0)

    func next() -> UInt64 {
      value.withLock {
        $0 += 1
        return $0
      }
    }
  }

#endif
