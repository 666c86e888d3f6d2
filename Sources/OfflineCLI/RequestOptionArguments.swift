import Foundation
import OfflineHTTP

/// The request options of `get`, `add`, `info` and `cache get`, written as curl writes them:
/// each call consumes one option (and its value) from the argument list into a
/// `RequestOptions`. Every mistake is a usage error naming the option; a header value,
/// password or cookie is never repeated.
enum RequestOptionArguments {
  /// The option names ``consume(_:inline:from:into:usage:)`` takes.
  static let names: Set<String> = [
    "-H", "--header", "--secret-header", "--user-agent", "--referer", "--cookies", "-u", "--user",
    "--netrc", "--netrc-file", "--location-trusted",
  ]

  /// The help rows, in the order `--help` lists them.
  static let help: [(String, String)] = [
    (
      "-H, --header <'Name: value'>",
      "Send this header field with every request of the content (files, playlists, segments,"
        + " keys); repeatable. Authorization, Cookie and Proxy-Authorization are secrets."
    ),
    ("--secret-header <name>", "Treat this header as a secret too: never shown, never sent on."),
    ("--user-agent <text>", "Send this User-Agent instead of OfflineKit's."),
    ("--referer <url>", "Send this Referer with every request."),
    (
      "--cookies <file>",
      "Send cookies from this Netscape cookies.txt (what curl -b and yt-dlp --cookies read);"
        + " cookies the server sets are kept for the content's later requests."
    ),
    (
      "-u, --user <user[:password]>",
      "HTTP Basic credentials; without a password it is asked for on the terminal."
    ),
    ("--netrc", "Read the host's credentials from ~/.netrc, as curl does."),
    ("--netrc-file <file>", "Read the host's credentials from this netrc file."),
    (
      "--location-trusted",
      "Send credentials, cookies and secret headers on after a redirect to another origin"
        + " (by default they stay behind)."
    ),
  ]

  /// Consumes option `name` (its value inline or the next argument) into `options`.
  ///
  /// - Throws: ``UsageError`` naming the option when its value cannot be used: a header
  ///   without a colon, with a line break or without a name; an empty user; a password left
  ///   out with no terminal to ask on; a cookies or netrc file that cannot be read, or a
  ///   cookies file with a malformed line (named).
  static func consume(
    _ name: String, inline: String?, from scanner: inout ArgumentScanner,
    into options: inout RequestOptions, usage: String
  ) throws(UsageError) {
    func value() throws(UsageError) -> String { try scanner.value(for: name, inline: inline) }
    do {
      switch name {
      case "-H", "--header":
        let field = try HTTPHeaders.Field(parsingHeaderLine: try value())
        options.headers.add(name: field.name, value: field.value)
      case "--secret-header": options.secretHeaderNames.insert(try value())
      case "--user-agent": options.userAgent = try checkedLine(value(), option: name)
      case "--referer": options.referer = try checkedLine(value(), option: name)
      case "--cookies":
        let path = try value()
        options.cookieFile = path
        try RequestOptions(cookieFile: path).validate()
      case "-u", "--user":
        let (user, password) = try Credentials.parse(try value())
        options.credentials = try Credentials(
          user: user, password: try password ?? askPassword(for: user))
      case "--netrc": options.netrcFile = options.netrcFile ?? ""
      case "--netrc-file":
        let path = try value()
        options.netrcFile = path
        try RequestOptions(netrcFile: path).validate()
      case "--location-trusted": options.sendsSecretsAcrossRedirects = true
      default: throw scanner.unknown(name)
      }
    } catch let error as UsageError {
      throw error
    } catch let error as RequestOptionError {
      throw UsageError(message: error.description, usage: usage)
    } catch {
      throw UsageError(message: "\(name): \(error)", usage: usage)
    }
  }

  private static func checkedLine(_ text: String, option: String) throws(RequestOptionError)
    -> String
  {
    guard !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
      throw RequestOptionError(option: option, message: "it may not hold a line break or a NUL")
    }
    return text
  }

  /// Asks for the password on the terminal without echo, as curl does.
  private static func askPassword(for user: String) throws(RequestOptionError) -> String {
    guard isatty(STDIN_FILENO) == 1 else {
      throw RequestOptionError(
        option: "--user",
        message: "no password after the colon, and no terminal to ask for it on; give"
          + " '\(user):PASSWORD' or use --netrc-file")
    }
    // Echo goes off before the prompt shows, so nothing typed after it is ever echoed.
    var settings = termios()
    tcgetattr(STDIN_FILENO, &settings)
    var silent = settings
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &silent)
    defer {
      tcsetattr(STDIN_FILENO, TCSANOW, &settings)
      FileHandle.standardError.write(Data("\n".utf8))
    }
    FileHandle.standardError.write(Data("Enter host password for user '\(user)':".utf8))
    return readLine(strippingNewline: true) ?? ""
  }
}
