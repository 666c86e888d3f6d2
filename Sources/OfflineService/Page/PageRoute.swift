import Foundation

/// `/`, `/app.js`, `/app.css`: the web page, served from the binary (no build step, no
/// outside code). A strict Content-Security-Policy allows only these files, and no framing.
enum PageRoute {
  /// The answer for `name` (`""` is the page), or nil when it is not one of the page's files.
  static func respond(to request: HTTPRequest, name: String) -> HTTPResponse? {
    let file: (String, String)
    switch name {
    case "": file = ("text/html; charset=utf-8", PageHTML.text)
    case "app.js": file = ("text/javascript; charset=utf-8", PageScript.text)
    case "app.css": file = ("text/css; charset=utf-8", PageStyle.text)
    default: return nil
    }
    guard request.isSafe else {
      return .text(405, "The page is read-only.", headers: [("Allow", "GET, HEAD")])
    }
    return HTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", file.0), ("Cache-Control", "no-cache"),
        (
          "Content-Security-Policy",
          "default-src 'self'; media-src 'self'; img-src 'self' data:; frame-ancestors 'none';"
            + " form-action 'self'; base-uri 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
      ], body: Data(file.1.utf8))
  }
}
