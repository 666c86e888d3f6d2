import Foundation

/// Reads the credentials for a host from a `.netrc` file, as curl's `--netrc` does: for
/// transports that send `Authorization` themselves (``URLSessionTransport``) rather than
/// through libcurl.
///
/// The file is a list of whitespace-separated tokens: `machine NAME` starts an entry for a
/// host (compared case-insensitively), `default` one for every host, and `login` and
/// `password` give its credentials; `macdef` skips a macro up to the next blank line. The
/// first entry for the host, or else `default`, is used.
enum NetrcFile {
  /// The credentials that `file` (an empty path for `~/.netrc`) gives `host`; nil when the
  /// file cannot be read or has no entry with a login for it.
  static func credentials(forHost host: String, file: String) -> (user: String, password: String)? {
    let path =
      file.isEmpty
      ? FileManager.default.homeDirectoryForCurrentUser.appending(path: ".netrc").path : file
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    return credentials(forHost: host, in: text)
  }

  /// The credentials that the netrc `text` gives `host`.
  static func credentials(forHost host: String, in text: String) -> (
    user: String, password: String
  )? {
    var entries: [(machine: String?, user: String?, password: String?)] = []
    var tokens = tokens(of: text).makeIterator()
    while let token = tokens.next() {
      switch token {
      case "machine": entries.append((tokens.next()?.lowercased(), nil, nil))
      case "default": entries.append((nil, nil, nil))
      case "login" where !entries.isEmpty: entries[entries.count - 1].user = tokens.next()
      case "password" where !entries.isEmpty: entries[entries.count - 1].password = tokens.next()
      default: continue
      }
    }
    let host = host.lowercased()
    let entry = entries.first { $0.machine == host } ?? entries.first { $0.machine == nil }
    guard let entry, let user = entry.user, !user.isEmpty else { return nil }
    return (user, entry.password ?? "")
  }

  /// The file's tokens, without the bodies of `macdef` macros.
  private static func tokens(of text: String) -> [String] {
    var tokens: [String] = []
    var inMacro = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      if inMacro {
        if words.isEmpty { inMacro = false }
        continue
      }
      if let macro = words.firstIndex(of: "macdef") {
        tokens += words[..<macro].map(String.init)
        inMacro = true
        continue
      }
      tokens += words.map(String.init)
    }
    return tokens
  }
}
