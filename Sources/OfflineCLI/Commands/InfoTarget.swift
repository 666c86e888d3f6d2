import Foundation

/// What `offline info` shows: a stream by its URL (what it offers, before downloading it),
/// or a content of the store by its id (its state, and for a live recording what it holds).
enum InfoTarget: Sendable, Equatable {
  case url(URL)
  case content(id: String)
}

extension ValueParser where Value == InfoTarget {
  /// An http or https URL, or a content's id (a word without `:` or `/`).
  static var urlOrContentID: ValueParser<InfoTarget> {
    ValueParser("an http or https URL or a content's id") { text in
      if let url = ValueParser<URL>.httpURL.convertURL(text) { return .url(url) }
      let isWord = !text.isEmpty && !text.contains(":") && !text.contains("/")
      return isWord ? .content(id: text) : nil
    }
  }
}

extension ValueParser where Value == URL {
  /// The URL `text` reads as, nil when it is refused.
  fileprivate func convertURL(_ text: String) -> URL? {
    try? read(text)
  }
}
