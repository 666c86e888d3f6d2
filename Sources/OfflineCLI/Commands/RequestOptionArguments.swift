import Foundation
import OfflineHTTP

/// The request options of `get`, `add`, `info` and `cache get`, written as curl writes them.
/// Every mistake is a usage error naming the option; a header value, password or cookie is
/// never repeated.
enum RequestOptionArguments {
  static let header: Option<[HTTPHeaders.Field]> = .repeating(
    "-H", "--header", valueName: "'Name: value'",
    help: "Send this header field with every request of the content (files, playlists,"
      + " segments, keys); repeatable. Authorization, Cookie and Proxy-Authorization are"
      + " secrets.",
    parser: .headerLine
  ).hidingValues(.whenItIsASecretHeader)
  static let secretHeader: Option<[String]> = .repeating(
    "--secret-header", valueName: "name",
    help: "Treat this header as a secret too: never shown, never sent on.", parser: .string
  ).hidingValues(.namesSecretHeader)
  static let userAgent: Option<String?> = .value(
    "--user-agent", valueName: "text", help: "Send this User-Agent instead of OfflineKit's.",
    parser: .singleLine)
  static let referer: Option<String?> = .value(
    "--referer", valueName: "url", help: "Send this Referer with every request.",
    parser: .singleLine)
  static let cookies: Option<String?> = .value(
    "--cookies", valueName: "file",
    help: "Send cookies from this Netscape cookies.txt (what curl -b and yt-dlp --cookies"
      + " read); cookies the server sets are kept for the content's later requests.",
    parser: .readableOption { RequestOptions(cookieFile: $0) })
  static let user: Option<UserArgument?> = .value(
    "-u", "--user", valueName: "user[:password]",
    help: "HTTP Basic credentials; without a password it is asked for on the terminal.",
    parser: .user
  ).hidingValues(.always)
  static let netrc: Option<Bool> = .flag(
    "--netrc", help: "Read the host's credentials from ~/.netrc, as curl does.")
  static let netrcFile: Option<String?> = .value(
    "--netrc-file", valueName: "file", help: "Read the host's credentials from this netrc file.",
    parser: .readableOption { RequestOptions(netrcFile: $0) })
  static let trustOrigin: Option<[URL]> = .repeating(
    "--trust-origin", valueName: "url",
    help: "Send credentials and secret headers to this origin (scheme, host, port) too, when"
      + " the playlist or manifest places pieces there; by default only the given URL's"
      + " origin gets them. Repeatable.",
    parser: .httpURL)
  static let locationTrusted: Option<Bool> = .flag(
    "--location-trusted",
    help: "Send credentials, cookies and secret headers on after a redirect to another origin"
      + " (by default they stay behind).")

  static let limitRate: Option<ByteRate?> = .value(
    "--limit-rate", valueName: "rate",
    help: "Receive at most this many bytes per second for the content, all its requests"
      + " together (500k, 2M, 1G: powers of 1024, as curl).",
    parser: .byteRate)

  /// The declarations, for a command's configuration.
  static let all: [any OptionDeclaring] = [
    header, secretHeader, userAgent, referer, cookies, user, netrc, netrcFile, trustOrigin,
    locationTrusted, limitRate,
  ]

  /// The request options given. A password left out of `--user` is asked for here, on the
  /// terminal, without echo.
  ///
  /// - Throws: ``UsageError`` when the password is left out and there is no terminal.
  static func requestOptions(from arguments: ParsedArguments) throws(UsageError)
    -> RequestOptions
  {
    var options = RequestOptions()
    for field in arguments[header] { options.headers.add(name: field.name, value: field.value) }
    options.secretHeaderNames = Set(arguments[secretHeader])
    options.userAgent = arguments[userAgent]
    options.referer = arguments[referer]
    options.cookieFile = arguments[cookies]
    options.netrcFile = arguments[netrcFile] ?? (arguments[netrc] ? "" : nil)
    options.sendsSecretsAcrossRedirects = arguments[locationTrusted]
    options.trustedOrigins = arguments[trustOrigin]
    options.rateLimit = arguments[limitRate]
    if let given = arguments[user] {
      do throws(RequestOptionError) {
        let password: String
        if let given = given.password {
          password = given
        } else {
          password = try askPassword(for: given.user, host: arguments.host)
        }
        options.credentials = try Credentials(user: given.user, password: password)
      } catch {
        throw UsageError(error.description)
      }
    }
    return options
  }

  /// Asks for the password on the terminal without echo, as curl does.
  private static func askPassword(for user: String, host: CommandHost)
    throws(RequestOptionError) -> String
  {
    guard host.standardInput.isTerminal else {
      throw RequestOptionError(
        option: "--user",
        message: "no password after the colon, and no terminal to ask for it on; give"
          + " '\(user):PASSWORD' or use --netrc-file")
    }
    // Echo goes off before the prompt shows, so nothing typed after it is ever echoed.
    defer { host.console.errRaw("\n") }
    return host.standardInput.readSecretLine(showing: {
      host.console.errRaw("Enter host password for user '\(user)':")
    }) ?? ""
  }
}
