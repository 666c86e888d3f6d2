/// The headers of a file served from `/content/<id>/…`, so that nothing a server sent can act
/// in the service's origin.
///
/// The service's own page and its API share the origin `http://ADDRESS:PORT`, and the token
/// cookie goes with every request to it. A downloaded HTML file served there as `text/html`
/// would run its script as the service: read every content and add downloads, past the
/// cookie and the same-origin checks. So every content file is served with:
///
/// - `Content-Security-Policy: sandbox`: a browser that renders it anyway gives it a unique
///   origin and runs no script in it;
/// - `X-Content-Type-Options: nosniff`: no browser guesses HTML out of another type;
/// - for a file that does not play (``MediaType/playable(_:)`` is nil: HTML, SVG, JSON,
///   text, anything unknown): `Content-Type: application/octet-stream` and
///   `Content-Disposition: attachment`, so a browser saves it instead of opening it.
///
/// Media keep their type and play in place (the web page's `<video>`, players, ffmpeg).
enum ContentHeaders {
  /// The headers for the file at `segments` inside the content's folder.
  static func of(_ segments: [String]) -> [(String, String)] {
    let inKeys = ServedFiles.isKey(segments)
    let type = inKeys ? nil : segments.last.flatMap(MediaType.playable)
    var headers = [
      ("Content-Type", type ?? "application/octet-stream"),
      ("Content-Security-Policy", "sandbox"),
      ("X-Content-Type-Options", "nosniff"),
    ]
    if type == nil { headers.append(("Content-Disposition", "attachment")) }
    headers.append(("Cache-Control", inKeys ? "no-store" : "no-cache"))
    return headers
  }
}
