import Foundation

extension Reply {
  /// The reply to `request` for `resource`, following RFC 9110 range semantics.
  ///
  /// - 206 with `Content-Range` for one satisfiable range (§14.4, §15.3.7);
  /// - 416 with `Content-Range: bytes */TOTAL` when the start is at or past the end
  ///   (§15.5.17);
  /// - 200 with the full body otherwise: no or malformed `Range`, several ranges, ranges
  ///   not accepted, or an `If-Range` that matches no current validator (§13.1.5).
  ///
  /// `contentRangeShift` is applied here, since it changes a header and not the body.
  static func resource(
    _ resource: FaultServer.Resource, request: RecordedRequest
  ) -> Reply {
    let total = resource.body.count
    var headers: [(String, String)] = [("Content-Type", "application/octet-stream")]
    if let etag = resource.etag { headers.append(("ETag", etag)) }
    if let lastModified = resource.lastModified {
      headers.append(("Last-Modified", lastModified))
    }
    if resource.acceptsRanges { headers.append(("Accept-Ranges", "bytes")) }

    var full = Reply(status: 200, headers: headers, payload: resource.body, range: 0..<total)
    full.isEntity = true
    guard resource.acceptsRanges, let rangeHeader = request.headers["range"],
      ifRangeMatches(request.headers["if-range"], resource: resource)
    else { return full }

    switch ByteRangeRequest(rangeHeader) {
    case nil:
      return full
    case .some(let spec):
      guard let range = spec.resolve(total: total) else {
        let body = Data("Range Not Satisfiable: the entity has \(total) bytes.\n".utf8)
        var reply = Reply.fixed(
          416, headers: headers + [("Content-Range", "bytes */\(total)")], body: body)
        reply.headers[0] = ("Content-Type", "text/plain")
        return reply
      }
      let shift = resource.faults.contentRangeShift
      let first = range.lowerBound + shift
      let last = range.upperBound - 1 + shift
      var partial = Reply(
        status: 206, headers: headers + [("Content-Range", "bytes \(first)-\(last)/\(total)")],
        payload: resource.body, range: range)
      partial.isEntity = true
      if resource.faults.gzipRanges {
        let gzipHeader = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03])
        partial.headers.append(("Content-Encoding", "gzip"))
        partial.payload = gzipHeader
        partial.range = 0..<gzipHeader.count
        partial.isEntity = false
      }
      return partial
    }
  }

  /// Whether a `Range` may be honoured given `If-Range` (true when there is none).
  ///
  /// An entity tag matches only by strong comparison (§8.8.3.2), so weak tags never do; a
  /// date matches when it equals `Last-Modified` exactly.
  private static func ifRangeMatches(
    _ ifRange: String?, resource: FaultServer.Resource
  ) -> Bool {
    guard let ifRange = ifRange?.trimmingCharacters(in: .whitespaces) else { return true }
    if ifRange.hasPrefix("\"") || ifRange.hasPrefix("W/") {
      guard let etag = resource.etag, !etag.hasPrefix("W/") else { return false }
      return ifRange == etag
    }
    return ifRange == resource.lastModified
  }
}
