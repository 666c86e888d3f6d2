/// Language tags as containers want them: MP4 and Matroska store ISO 639-2 codes (`eng`),
/// HLS playlists carry RFC 5646 tags (`en`, `en-US`).
enum LanguageCode {
  /// The ISO 639-2/B code for an RFC 5646 tag whose primary subtag is a common ISO 639-1
  /// code; other tags come back as their primary subtag, lowercased.
  static func iso639_2(_ tag: String) -> String {
    let primary = String(tag.lowercased().prefix { $0 != "-" && $0 != "_" })
    return twoLetter[primary] ?? primary
  }

  private static let twoLetter: [String: String] = [
    "ar": "ara", "bg": "bul", "ca": "cat", "cs": "cze", "da": "dan", "de": "ger", "el": "gre",
    "en": "eng", "es": "spa", "et": "est", "eu": "baq", "fa": "per", "fi": "fin", "fr": "fre",
    "ga": "gle", "he": "heb", "hi": "hin", "hr": "hrv", "hu": "hun", "id": "ind", "is": "ice",
    "it": "ita", "ja": "jpn", "ko": "kor", "lt": "lit", "lv": "lav", "ms": "may", "nb": "nob",
    "nl": "dut", "nn": "nno", "no": "nor", "pl": "pol", "pt": "por", "ro": "rum", "ru": "rus",
    "sk": "slo", "sl": "slv", "sr": "srp", "sv": "swe", "ta": "tam", "th": "tha", "tr": "tur",
    "uk": "ukr", "vi": "vie", "zh": "chi",
  ]
}
