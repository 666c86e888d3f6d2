import Foundation
import OfflineHTTP

/// What a ``ScriptedTransport`` answers to one request: a head, a body delivered in parts,
/// and how the body ends (whole, cut, stalled), with optional holds where the test decides
/// when the response goes on.
///
/// ```swift
/// .ok(body, etag: "\"v1\"").split(into: 4096).cut(after: 100_000)
/// .status(503, retryAfter: "2")
/// .ok(body).held(by: gate, atOffset: 1 << 20)
/// ```
public struct ScriptedResponse: Sendable {
  /// How the body ends.
  public enum Ending: Sendable, Equatable {
    /// Every byte of ``ScriptedResponse/body`` is delivered.
    case complete
    /// The connection closes after this many bytes: the transport throws `.connectionLost`,
    /// as curl reports a body shorter than its `Content-Length` (code 18).
    case cut(after: Int)
    /// No byte comes after this many: the transport throws `.stalled` at once, as curl does
    /// when its stall timeout passes (code 28).
    case stall(after: Int)
  }

  /// The status code.
  public var status: Int
  /// The header fields. `Content-Length` is added from the body unless set.
  public var headers: HTTPHeaders
  /// The whole body the head announces.
  public var body: Data
  /// The most bytes handed to the delegate in one call (curl hands at most 16 KiB).
  public var partSize = 16 << 10
  /// How the body ends.
  public var ending = Ending.complete
  /// A failure instead of any response (connection refused, TLS failure, ...).
  package var failure: HTTPError.Kind?
  /// A gate the response waits at before its head is delivered.
  public var headGate: ScriptedGate?
  /// Gates the body waits at, each once `offset` bytes of it have been delivered, in order
  /// of offset.
  public var bodyGates: [(offset: Int, gate: ScriptedGate)] = []

  /// A response with `status`, `headers` and `body`.
  public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
    if headers["Content-Length"] == nil {
      self.headers.add(name: "Content-Length", value: String(body.count))
    }
  }

  /// A 200 with the whole `body` and its validators.
  public static func ok(
    _ body: Data, etag: String? = "\"v1\"", lastModified: String? = nil,
    acceptsRanges: Bool = true
  ) -> ScriptedResponse {
    ScriptedResponse(
      status: 200,
      headers: validators(etag: etag, lastModified: lastModified, acceptsRanges: acceptsRanges),
      body: body)
  }

  /// A 206 with the bytes of `whole` from `offset` (through `last`, or to the end) and the
  /// `Content-Range` that says so.
  public static func partial(
    _ whole: Data, from offset: Int, through last: Int? = nil, etag: String? = "\"v1\"",
    lastModified: String? = nil
  ) -> ScriptedResponse {
    let end = min(last ?? whole.count - 1, whole.count - 1)
    var headers = validators(etag: etag, lastModified: lastModified, acceptsRanges: true)
    headers.add(name: "Content-Range", value: "bytes \(offset)-\(end)/\(whole.count)")
    return ScriptedResponse(
      status: 206, headers: headers, body: whole.subdata(in: offset..<(end + 1)))
  }

  /// A 416 for a resource of `length` bytes (`Content-Range: bytes */length`).
  public static func rangeNotSatisfiable(length: Int) -> ScriptedResponse {
    ScriptedResponse(status: 416, headers: ["Content-Range": "bytes */\(length)"])
  }

  /// Any other status, such as 401 or 403 to an expired token, or 429 and 503 with a
  /// `Retry-After` (seconds or an HTTP date).
  public static func status(_ status: Int, retryAfter: String? = nil) -> ScriptedResponse {
    var headers = HTTPHeaders()
    if let retryAfter { headers.add(name: "Retry-After", value: retryAfter) }
    return ScriptedResponse(status: status, headers: headers)
  }

  /// No response at all: the transport throws `kind` (`.cannotConnect`, `.tlsFailure`, ...).
  package static func failing(_ kind: HTTPError.Kind) -> ScriptedResponse {
    var response = ScriptedResponse(status: 0)
    response.failure = kind
    return response
  }

  /// This response with its body handed over at most `size` bytes at a time.
  public func split(into size: Int) -> ScriptedResponse {
    var copy = self
    copy.partSize = max(1, size)
    return copy
  }

  /// This response with its connection closed after `count` bytes of body.
  public func cut(after count: Int) -> ScriptedResponse {
    var copy = self
    copy.ending = .cut(after: min(count, body.count))
    return copy
  }

  /// This response with no byte of body coming after `count`.
  public func stalled(after count: Int) -> ScriptedResponse {
    var copy = self
    copy.ending = .stall(after: min(count, body.count))
    return copy
  }

  /// This response held at `gate` before its head is delivered.
  public func held(by gate: ScriptedGate) -> ScriptedResponse {
    var copy = self
    copy.headGate = gate
    return copy
  }

  /// This response held at `gate` once `offset` bytes of its body have been delivered (as
  /// well as at the gates it already has).
  public func held(by gate: ScriptedGate, atOffset offset: Int) -> ScriptedResponse {
    var copy = self
    copy.bodyGates.append((min(offset, body.count), gate))
    copy.bodyGates.sort { $0.offset < $1.offset }
    return copy
  }

  /// The bytes delivered before the ending.
  var deliveredBody: Data {
    switch ending {
    case .complete: body
    case .cut(let count), .stall(let count): body.prefix(count)
    }
  }

  private static func validators(etag: String?, lastModified: String?, acceptsRanges: Bool)
    -> HTTPHeaders
  {
    var headers = HTTPHeaders()
    if let etag { headers.add(name: "ETag", value: etag) }
    if let lastModified { headers.add(name: "Last-Modified", value: lastModified) }
    if acceptsRanges { headers.add(name: "Accept-Ranges", value: "bytes") }
    return headers
  }
}
