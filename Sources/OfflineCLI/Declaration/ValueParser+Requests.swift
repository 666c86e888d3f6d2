import OfflineHTTP
import OfflineKit

extension ValueParser where Value == Proxy {
  /// A proxy URL as curl's `--proxy` takes it; a refused one is never echoed (it may carry a
  /// password).
  static var proxy: ValueParser<Proxy> {
    ValueParser { (text: String) throws(ValueError) -> Proxy in
      do throws(RequestOptionError) {
        return try Proxy(parsing: text)
      } catch {
        throw .reason(error.message)
      }
    }
  }
}

extension ValueParser where Value == NoProxyList {
  /// Hosts to reach directly, as curl's `--noproxy` takes them.
  static var noProxyList: ValueParser<NoProxyList> {
    ValueParser { NoProxyList(parsing: $0) }
  }
}

extension ValueParser where Value == StreamConfiguration.VariantChoice {
  /// `highest`, `lowest`, or a minimum bitrate (800000, 800k, 2M).
  static var variant: ValueParser<StreamConfiguration.VariantChoice> {
    ValueParser(
      "'highest', 'lowest' or a bitrate", completion: .values(["highest", "lowest"]),
      convert: StreamConfiguration.VariantChoice.init(argument:))
  }
}

extension ValueParser where Value == StreamConfiguration.RenditionChoice {
  /// Languages (en,fr), or one of `words`; `refused` is the choice this option cannot take.
  static func rendition(_ words: [String], refusing refused: StreamConfiguration.RenditionChoice)
    -> ValueParser<StreamConfiguration.RenditionChoice>
  {
    let expectation = "languages, " + words.map { "'\($0)'" }.joined(separator: " or ")
    return ValueParser(expectation, completion: .values(words)) { text in
      StreamConfiguration.RenditionChoice(argument: text).flatMap { $0 == refused ? nil : $0 }
    }
  }
}

extension ValueParser where Value == HTTPHeaders.Field {
  /// `Name: value`, as curl's `-H` takes it; a refused one is never echoed (it may be a
  /// token pasted alone).
  static var headerLine: ValueParser<HTTPHeaders.Field> {
    ValueParser { (text: String) throws(ValueError) -> HTTPHeaders.Field in
      do throws(RequestOptionError) {
        return try HTTPHeaders.Field(parsingHeaderLine: text)
      } catch {
        throw .reason(error.message)
      }
    }
  }
}

extension ValueParser where Value == String {
  /// Text on one line: no CR, LF or NUL (it goes into a header field).
  static var singleLine: ValueParser<String> {
    ValueParser { (text: String) throws(ValueError) -> String in
      guard !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
      else { throw .reason("it may not hold a line break or a NUL") }
      return text
    }
  }

  /// A file path that `options(path)` validates (a cookies or netrc file: readable, and
  /// well formed, naming the bad line).
  static func readableOption(_ options: @escaping @Sendable (String) -> RequestOptions)
    -> ValueParser<String>
  {
    ValueParser(completion: .file) { (text: String) throws(ValueError) -> String in
      do throws(RequestOptionError) {
        try options(text).validate()
      } catch {
        throw .reason(error.message)
      }
      return text
    }
  }
}

extension ValueParser where Value == UserArgument {
  /// `USER[:PASSWORD]`; a refused one is never echoed.
  static var user: ValueParser<UserArgument> {
    ValueParser { (text: String) throws(ValueError) -> UserArgument in
      do throws(RequestOptionError) {
        let (user, password) = try Credentials.parse(text)
        return UserArgument(user: user, password: password)
      } catch {
        throw .reason(error.message)
      }
    }
  }
}

extension ValueParser where Value == ByteRate {
  /// A rate as curl's `--limit-rate` takes it: `500k`, `2M`, `1G` or bytes per second.
  static var byteRate: ValueParser<ByteRate> {
    ValueParser("a rate such as 500k, 2M or 1G") { try? ByteRate(parsing: $0) }
  }
}
