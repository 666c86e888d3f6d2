extension Key {
  /// The most `EXT-X-KEY` tags (one per `KEYFORMAT`) the parser lets be in effect at once,
  /// which keeps parsing linear in the size of the playlist.
  static let maximumFormatsInEffect = 16

  /// The keys in effect after `keys` are read, in order, with `current` in effect
  /// (RFC 8216 §4.3.2.4): a key replaces the one with the same `KEYFORMAT`, or joins the end
  /// of the list; `METHOD=NONE` clears them all.
  static func applying(_ keys: [Key], to current: [Key]) -> [Key] {
    var result = current
    for key in keys {
      if key.method == .none {
        result = []
      } else if let index = result.firstIndex(where: { $0.keyFormat == key.keyFormat }) {
        result[index] = key
      } else {
        result.append(key)
      }
    }
    return result
  }
}
