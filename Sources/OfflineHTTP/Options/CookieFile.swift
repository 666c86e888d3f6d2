/// Checks a Netscape/Mozilla `cookies.txt` before libcurl's cookie engine reads it, so a
/// malformed file is an error naming its line instead of cookies silently missing.
///
/// Each line that is not blank or a comment (`#`, except the `#HttpOnly_` prefix) holds
/// seven tab-separated fields: domain, include-subdomains (`TRUE`/`FALSE`), path, secure
/// (`TRUE`/`FALSE`), expiry (seconds since 1970, 0 for a session cookie), name and value.
public enum CookieFile {
  /// Checks `text`, the file's contents.
  ///
  /// - Returns: how many cookies it holds.
  /// - Throws: ``RequestOptionError`` (for `--cookies`) naming the first bad line. Cookie
  ///   values are never repeated.
  public static func validate(_ text: String, path: String) throws(RequestOptionError) -> Int {
    var count = 0
    var number = 0
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      var line = raw
      if line.last == "\r" { line = line.dropLast() }
      if line.hasPrefix("#HttpOnly_") {
        line = line.dropFirst("#HttpOnly_".count)
      } else if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) {
        continue
      }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      func bad(_ why: String) -> RequestOptionError {
        RequestOptionError(option: "--cookies", message: "\(path), line \(number): \(why)")
      }
      guard fields.count == 7 else {
        throw bad("\(fields.count) tab-separated fields, not the 7 of a cookies.txt line")
      }
      guard !fields[0].isEmpty else { throw bad("no domain") }
      guard ["TRUE", "FALSE"].contains(fields[1].uppercased()),
        ["TRUE", "FALSE"].contains(fields[3].uppercased())
      else { throw bad("the second and fourth fields must be TRUE or FALSE") }
      guard fields[2].hasPrefix("/") else { throw bad("the path must start with /") }
      guard Int64(fields[4]) != nil else { throw bad("the expiry is not a whole number") }
      guard !fields[5].isEmpty else { throw bad("the cookie has no name") }
      count += 1
    }
    return count
  }
}
