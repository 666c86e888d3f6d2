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

extension ValueParser where Value == HLSOptions.VariantChoice {
  /// `highest`, `lowest`, or a minimum bitrate (800000, 800k, 2M).
  static var variant: ValueParser<HLSOptions.VariantChoice> {
    ValueParser(
      "'highest', 'lowest' or a bitrate", completion: .values(["highest", "lowest"]),
      convert: HLSOptions.VariantChoice.init(argument:))
  }
}

extension ValueParser where Value == HLSOptions.RenditionChoice {
  /// Languages (en,fr), or one of `words`; `refused` is the choice this option cannot take.
  static func rendition(_ words: [String], refusing refused: HLSOptions.RenditionChoice)
    -> ValueParser<HLSOptions.RenditionChoice>
  {
    let expectation = "languages, " + words.map { "'\($0)'" }.joined(separator: " or ")
    return ValueParser(expectation, completion: .values(words)) { text in
      HLSOptions.RenditionChoice(argument: text).flatMap { $0 == refused ? nil : $0 }
    }
  }
}
