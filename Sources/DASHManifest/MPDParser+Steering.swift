extension MPDParser {
  /// The first `ContentSteering` child of `element` (the MPD), or nil, with a sentence for
  /// each thing ignored: an element without a URL, with a URL longer than
  /// `MPD.ContentSteering.maximumURLLength`, or with a `queryBeforeStart` that is not an
  /// `xs:boolean`; the elements after the first. Never an error: steering only orders
  /// sources, and a player goes on without it too.
  static func contentSteering(_ element: Located) -> (MPD.ContentSteering?, [String]) {
    let all = element.children("ContentSteering")
    guard let first = all.first else { return (nil, []) }
    let extra =
      all.count > 1
      ? ["\(all.count - 1) more ContentSteering element(s) after the first are ignored"] : []
    let ignoring = { (why: String) in
      (MPD.ContentSteering?.none, ["\(first.path) is ignored: \(why)"] + extra)
    }
    guard let text = first.trimmedText else { return ignoring("it has no steering server URL") }
    guard text.utf8.count <= MPD.ContentSteering.maximumURLLength else {
      return ignoring("its URL is longer than 8192 bytes")
    }
    var steering = MPD.ContentSteering(serverURL: text)
    if let raw = first.string("queryBeforeStart") {
      guard let value = boolean(raw) else {
        return ignoring("its queryBeforeStart '\(raw.prefix(40))' is not true or false")
      }
      steering.queryBeforeStart = value
    }
    steering.defaultServiceLocation = nonEmpty(first.string("defaultServiceLocation"))
    steering.proxyServerURL = nonEmpty(first.string("proxyServerURL"))
    return (steering, extra)
  }

  /// An `xs:boolean`: `true`, `false`, `1` or `0`, surrounding whitespace allowed.
  private static func boolean(_ text: String) -> Bool? {
    switch text.trimmingASCIIWhitespace() {
    case "true", "1": true
    case "false", "0": false
    default: nil
    }
  }

  /// `text` trimmed; nil when absent or blank.
  private static func nonEmpty(_ text: String?) -> String? {
    guard let trimmed = text?.trimmingASCIIWhitespace(), !trimmed.isEmpty else { return nil }
    return trimmed
  }
}
