import Foundation

extension FaultServer {
  /// What the server does with requests to one path.
  public enum Behaviour: Sendable {
    /// A downloadable entity with range support (RFC 9110 §14) and optional faults.
    case resource(Resource)
    /// A fixed response. A `Content-Length` in `headers` replaces the computed one.
    case status(code: Int, headers: [(String, String)] = [], body: Data = Data())
    /// A redirect to `location`, with a short text body.
    case redirect(code: Int = 302, location: String)
    /// The n-th request (counting from 0 since `setRoute`) gets element n; the last element
    /// answers every later request. For example "503 twice, then the file".
    case sequence([Behaviour])
    /// Waits `seconds` before answering with `then` (the head arrives late; `stop()` ends
    /// the wait early).
    indirect case delayed(seconds: Double, then: Behaviour)
    /// Sends `bytes` as they are, not an HTTP response, then closes: a server speaking
    /// another protocol, or garbage where a status line belongs.
    case raw(Data)
    /// A 200 whose head carries `headerBytes` bytes of extra header fields (lines of about
    /// 1 KB each, so no single line is too long), then `body`.
    case hugeHeaders(headerBytes: Int, body: Data = Data("ok\n".utf8))
    /// An origin that can answer only `capacity` requests at once: a request that arrives
    /// while `capacity` requests to `overloaded` routes (any of them) are being answered gets
    /// `status` (503 or 429) at once, counted in `FaultServer.overloadRefusals`; any other is
    /// answered with `then` and holds its place until its response is sent.
    indirect case overloaded(capacity: Int, status: Int = 503, then: Behaviour)
  }

  /// A downloadable entity.
  ///
  /// Ranges follow RFC 9110: a single `bytes=N-`, `bytes=N-M` or `bytes=-S` gets 206 with
  /// `Content-Range` (§14.4); a start at or past the end gets 416 with `bytes */TOTAL`
  /// (§15.5.17); an `If-Range` (§13.1.5) that matches neither the strong ETag nor
  /// `Last-Modified` gets 200 with the full body. Several ranges or a malformed `Range` are
  /// ignored (200), as §14.2 allows.
  public struct Resource: Sendable {
    /// The entity's bytes.
    public var body: Data
    /// The `ETag` header including its quotes, or `nil` for none.
    public var etag: String?
    /// The `Last-Modified` header, or `nil` for none.
    public var lastModified: String?
    /// Whether ranges are honoured; `false` answers 200 with the full body to every `Range`.
    public var acceptsRanges: Bool
    /// Misbehaviour to inject into the responses.
    public var faults: Faults

    /// Creates a resource; by default it has ETag `"v1"`, accepts ranges and has no faults.
    public init(
      body: Data,
      etag: String? = "\"v1\"",
      lastModified: String? = nil,
      acceptsRanges: Bool = true,
      faults: Faults = .init()
    ) {
      self.body = body
      self.etag = etag
      self.lastModified = lastModified
      self.acceptsRanges = acceptsRanges
      self.faults = faults
    }
  }

  /// Misbehaviour injected into the 200 and 206 responses of a `Resource` (HEAD excepted).
  ///
  /// The two cutting faults (`cutAfterBodyBytes`, `declaredExtraLength`) hit only the first
  /// `cutResponses` responses of the path; the others (stall, shift, trickle) hit every one.
  /// A cut response says `Connection: close`.
  public struct Faults: Sendable {
    /// Closes the connection after this many body bytes of a response.
    public var cutAfterBodyBytes: Int?
    /// How many responses get cut; `Int.max` cuts every one.
    public var cutResponses: Int
    /// `Content-Length` claims this many more bytes than are sent; the server then sends the
    /// real bytes and closes ("body shorter than Content-Length").
    public var declaredExtraLength: Int
    /// Pauses after this many body bytes, for `stallSeconds`; `stop()` ends the pause early.
    public var stallAfterBodyBytes: Int?
    /// How long the stall lasts, in seconds.
    public var stallSeconds: Double
    /// On a 206, `Content-Range` claims a start (and end) shifted by this many bytes while
    /// the body holds the bytes actually asked for: a lying server.
    public var contentRangeShift: Int
    /// Paces the body to about this many bytes per second.
    public var bytesPerSecond: Int?
    /// Answers every 206 with `Content-Encoding: gzip` and a 10-byte gzip header as its
    /// whole body (`Content-Length: 10`), while `Content-Range` names the range asked for:
    /// a server that compresses ranges although asked for `identity`.
    public var gzipRanges: Bool

    /// Creates faults; the defaults inject none.
    public init(
      cutAfterBodyBytes: Int? = nil,
      cutResponses: Int = 1,
      declaredExtraLength: Int = 0,
      stallAfterBodyBytes: Int? = nil,
      stallSeconds: Double = 0,
      contentRangeShift: Int = 0,
      bytesPerSecond: Int? = nil,
      gzipRanges: Bool = false
    ) {
      self.cutAfterBodyBytes = cutAfterBodyBytes
      self.cutResponses = cutResponses
      self.declaredExtraLength = declaredExtraLength
      self.stallAfterBodyBytes = stallAfterBodyBytes
      self.stallSeconds = stallSeconds
      self.contentRangeShift = contentRangeShift
      self.bytesPerSecond = bytesPerSecond
      self.gzipRanges = gzipRanges
    }

    /// Whether these faults cut a response short.
    var cuts: Bool { cutAfterBodyBytes != nil || declaredExtraLength != 0 }
  }
}
