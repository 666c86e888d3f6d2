import Foundation
import OfflineHTTP

/// A file a ``ScriptedTransport`` serves the way nginx does: `Range` and `If-Range` read
/// (RFC 9110 §13.1.5, §14.2), a 206 with `Content-Range` when the validator matches, the whole
/// body with a 200 when it does not or ranges are off, and a 416 past the end.
public struct ScriptedResource: Sendable {
  /// The current bytes.
  public var body: Data
  /// The strong validator, quotes included (`"v1"`); nil for none.
  public var etag: String?
  /// The `Last-Modified` date; nil for none.
  public var lastModified: String?
  /// Whether ranges are honoured (false: every request gets the whole body with a 200).
  public var acceptsRanges: Bool
  /// The most bytes handed to the delegate in one call.
  public var partSize: Int

  /// A resource with `body` and its validators.
  public init(
    _ body: Data, etag: String? = "\"v1\"", lastModified: String? = nil,
    acceptsRanges: Bool = true, partSize: Int = 16 << 10
  ) {
    self.body = body
    self.etag = etag
    self.lastModified = lastModified
    self.acceptsRanges = acceptsRanges
    self.partSize = partSize
  }

  /// The response a range-aware server gives to `request`.
  public func response(to request: ScriptedRequest) -> ScriptedResponse {
    let whole = ScriptedResponse.ok(
      body, etag: etag, lastModified: lastModified, acceptsRanges: acceptsRanges
    ).split(into: partSize)
    guard acceptsRanges, let range = request.range.flatMap(ByteRangeRequest.init) else {
      return whole
    }
    if let ifRange = request.ifRange, ifRange != etag, ifRange != lastModified {
      return whole
    }
    guard let bytes = range.resolve(total: body.count) else {
      return .rangeNotSatisfiable(length: body.count)
    }
    return ScriptedResponse.partial(
      body, from: bytes.lowerBound, through: bytes.upperBound - 1, etag: etag,
      lastModified: lastModified
    ).split(into: partSize)
  }
}
