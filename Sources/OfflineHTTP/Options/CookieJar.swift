// libcurl is linked on Linux only (Package.swift).
#if canImport(CCurl)
  import CCurl
  import Foundation

  /// The cookies of one content: libcurl's cookie engine on a share handle
  /// (`CURLSH` with `CURL_LOCK_DATA_COOKIE`) that every request of the content uses.
  ///
  /// The jar starts with the cookies of a Netscape/Mozilla `cookies.txt` file, when one is
  /// given, and keeps every cookie a server sets during the content's download, so a cookie
  /// the playlist's response sets is sent with the segments and keys after it. Which cookie
  /// goes with which request (domain, path, `Secure`, expiry) is libcurl's decision, as in
  /// `curl -b FILE`. Nothing is ever written back to the file.
  ///
  /// ```swift
  /// let jar = CookieJar(file: "/home/me/cookies.txt")
  /// let request = HTTPRequest(url: url, options: options, cookieJar: jar)
  /// ```
  ///
  /// Requests of any number of transports may use one jar at once: libcurl takes the jar's
  /// locks around every use. The jar's cookies are never sent after a redirect to another
  /// origin unless ``RequestOptions/sendsSecretsAcrossRedirects`` is set.
  ///
  /// `@unchecked Sendable` is sound because the share handle is only used through libcurl,
  /// which takes the locks below (one pthread mutex per kind of shared data) around every
  /// access from any thread; the pointers themselves never change after `init`.
  public final class CookieJar: @unchecked Sendable, Equatable {
    /// The share handle; the easy handles of this content's requests attach to it.
    let share: UnsafeMutableRawPointer?
    /// One mutex per `curl_lock_data` kind. `Synchronization.Mutex` only locks around a
    /// closure; libcurl locks and unlocks in two separate callbacks.
    private let locks: UnsafeMutablePointer<pthread_mutex_t>
    private let lockCount = Int(CURL_LOCK_DATA_LAST.rawValue) + 1

    /// Creates a jar holding the cookies of `file` (none when nil). A file that cannot be read
    /// gives an empty jar, as with curl; check it first with ``RequestOptions/validate()``.
    public init(file: String? = nil) {
      CurlGlobal.initializeOnce()
      locks = .allocate(capacity: lockCount)
      for index in 0..<lockCount { pthread_mutex_init(locks + index, nil) }
      share = curl_share_init()
      guard let share else { return }
      let context = Unmanaged.passUnretained(self).toOpaque()
      _ = ok_share_setopt_ptr(share, CURLSHOPT_USERDATA, context)
      _ = ok_share_setopt_lock(share, CookieJar.lock)
      _ = ok_share_setopt_unlock(share, CookieJar.unlock)
      _ = ok_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
      if let file, !file.isEmpty { load(file) }
    }

    deinit {
      // Every easy handle that used the jar is gone: a request holds its jar until it ends.
      if let share { curl_share_cleanup(share) }
      for index in 0..<lockCount { pthread_mutex_destroy(locks + index) }
      locks.deallocate()
    }

    /// Two jars are equal only when they are the same jar.
    public static func == (lhs: CookieJar, rhs: CookieJar) -> Bool { lhs === rhs }

    /// The cookies held, in the `cookies.txt` line format (values included: for tests and
    /// debugging, never for display).
    public var netscapeLines: [String] {
      guard let share, let easy = curl_easy_init() else { return [] }
      defer { curl_easy_cleanup(easy) }
      _ = ok_easy_setopt_ptr(easy, CURLOPT_SHARE, share)
      var raw: UnsafeMutableRawPointer?
      guard ok_easy_getinfo_ptr(easy, CURLINFO_COOKIELIST, &raw) == CURLE_OK, let raw else {
        return []
      }
      let list = raw.assumingMemoryBound(to: curl_slist.self)
      defer { curl_slist_free_all(list) }
      var lines: [String] = []
      var node: UnsafeMutablePointer<curl_slist>? = list
      while let current = node {
        if let data = current.pointee.data { lines.append(String(cString: data)) }
        node = current.pointee.next
      }
      return lines
    }

    /// Attaches the jar to `easy` and switches its cookie engine on.
    func attach(to easy: UnsafeMutableRawPointer) {
      guard let share else { return }
      _ = ok_easy_setopt_ptr(easy, CURLOPT_SHARE, share)
      // An empty name switches the engine on without reading a file (the jar holds the file's).
      _ = ok_easy_setopt_str(easy, CURLOPT_COOKIEFILE, "")
    }

    /// Adds cookies given as `cookies.txt` lines (those a server set, read by a transport
    /// that does not use libcurl's engine); a cookie of the same name, domain and path is
    /// replaced, as when libcurl reads a `Set-Cookie` itself.
    func keep(_ lines: [String]) {
      guard let share, !lines.isEmpty, let easy = curl_easy_init() else { return }
      defer { curl_easy_cleanup(easy) }
      _ = ok_easy_setopt_ptr(easy, CURLOPT_SHARE, share)
      for line in lines { _ = ok_easy_setopt_str(easy, CURLOPT_COOKIELIST, line) }
    }

    /// Reads `file` into the jar once, now, through a handle that makes no request.
    private func load(_ file: String) {
      guard let share, let easy = curl_easy_init() else { return }
      defer { curl_easy_cleanup(easy) }
      _ = ok_easy_setopt_ptr(easy, CURLOPT_SHARE, share)
      _ = ok_easy_setopt_str(easy, CURLOPT_COOKIEFILE, file)
      _ = ok_easy_setopt_str(easy, CURLOPT_COOKIELIST, "RELOAD")
    }

    private func mutex(for data: curl_lock_data) -> UnsafeMutablePointer<pthread_mutex_t> {
      locks + min(Int(data.rawValue), lockCount - 1)
    }

    private static let lock: curl_lock_function = { _, data, _, context in
      guard let context else { return }
      let jar = Unmanaged<CookieJar>.fromOpaque(context).takeUnretainedValue()
      pthread_mutex_lock(jar.mutex(for: data))
    }

    private static let unlock: curl_unlock_function = { _, data, context in
      guard let context else { return }
      let jar = Unmanaged<CookieJar>.fromOpaque(context).takeUnretainedValue()
      pthread_mutex_unlock(jar.mutex(for: data))
    }
  }
#else
  import Foundation
  import Synchronization

  /// On Apple platforms, a content's cookies as `cookies.txt` lines, which
  /// `URLSessionTransport` matches itself (``CookieMatcher``) and adds the cookies servers
  /// set to (written for Apple platforms, not compiled in our CI; see the README's Platforms
  /// section). Thread-safe: the lines sit in a `Mutex`.
  public final class CookieJar: Sendable, Equatable {
    /// The Netscape `cookies.txt` the jar starts from, nil for none.
    public let file: String?
    private let lines: Mutex<[String]>

    /// Creates a jar holding the cookies of `file` (none when nil or unreadable).
    public init(file: String? = nil) {
      self.file = file
      let text = file.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
      lines = Mutex(
        text.split(separator: "\n").map(String.init).filter {
          CookieMatcher.cookie(fromNetscapeLine: $0) != nil
        })
    }

    /// Two jars are equal only when they are the same jar.
    public static func == (lhs: CookieJar, rhs: CookieJar) -> Bool { lhs === rhs }

    /// The cookies held, in the `cookies.txt` line format (values included: for tests and
    /// debugging, never for display).
    public var netscapeLines: [String] { lines.withLock { $0 } }

    /// Adds cookies given as `cookies.txt` lines; one of the same name, domain and path is
    /// replaced.
    func keep(_ added: [String]) {
      lines.withLock { lines in
        for line in added {
          guard let cookie = CookieMatcher.cookie(fromNetscapeLine: line) else { continue }
          lines.removeAll { old in
            guard let old = CookieMatcher.cookie(fromNetscapeLine: old) else { return true }
            return (old.name, old.domain, old.path) == (cookie.name, cookie.domain, cookie.path)
          }
          lines.append(line)
        }
      }
    }
  }
#endif
