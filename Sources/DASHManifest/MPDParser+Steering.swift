extension MPDParser {
  /// The first `ContentSteering` child of `element` (the MPD), or nil with the reason it
  /// was ignored: an element without a URL, with a URL longer than
  /// `MPD.ContentSteering.maximumURLLength`, or with a `queryBeforeStart` that is not an
  /// `xs:boolean`. A second element is ignored and named. Never an error: steering only
  /// orders sources, and a player goes on without it too.
  static func contentSteering(_ element: Located) -> (MPD.ContentSteering?, String?) {
    let all = element.children("ContentSteering")
    guard let first = all.first else { return (nil, nil) }
    let extra =
      all.count > 1 ? "\(all.count - 1) more ContentSteering element(s) after the first" : nil
    guard let text = first.trimmedText else {
      return (nil, join("\(first.path) has no steering server URL", extra))
    }
    guard text.utf8.count <= MPD.ContentSteering.maximumURLLength else {
      return (nil, join("\(first.path)'s URL is longer than 8192 bytes", extra))
    }
    var steering = MPD.ContentSteering(serverURL: text)
    if let raw = first.string("queryBeforeStart") {
      guard let value = boolean(raw) else {
        let shown = String(raw.prefix(40))
        return (
          nil, join("\(first.path)'s queryBeforeStart '\(shown)' is not true or false", extra)
        )
      }
      steering.queryBeforeStart = value
    }
    steering.defaultServiceLocation = first.string("defaultServiceLocation").flatMap {
      let trimmed = $0.trimmingASCIIWhitespace()
      return trimmed.isEmpty ? nil : trimmed
    }
    steering.proxyServerURL = first.string("proxyServerURL").flatMap {
      let trimmed = $0.trimmingASCIIWhitespace()
      return trimmed.isEmpty ? nil : trimmed
    }
    return (steering, extra.map { "\($0) ignored" })
  }

  /// An `xs:boolean`: `true`, `false`, `1` or `0`, surrounding whitespace allowed.
  private static func boolean(_ text: String) -> Bool? {
    switch text.trimmingASCIIWhitespace() {
    case "true", "1": true
    case "false", "0": false
    default: nil
    }
  }

  private static func join(_ reason: String, _ extra: String?) -> String {
    extra.map { "\(reason); \($0) ignored" } ?? reason
  }
}
