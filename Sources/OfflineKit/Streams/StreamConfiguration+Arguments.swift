import Foundation

// How a variant and renditions are written as text: by `offline get --variant`, `--audio`,
// `--subtitles` and by the service's JSON API alike.

extension StreamConfiguration.VariantChoice {
  /// Parses `highest`, `lowest` or a bitrate in bits per second (`800000`, `800k`, `2M`).
  public init?(argument: String) {
    switch argument.lowercased() {
    case "highest": self = .highest
    case "lowest": self = .lowest
    default:
      let text = argument.lowercased()
      let scale: Int = text.hasSuffix("k") ? 1000 : text.hasSuffix("m") ? 1_000_000 : 1
      let digits = scale == 1 ? text : String(text.dropLast())
      guard let value = Int(digits), value > 0 else { return nil }
      self = .minimumBitrate(value * scale)
    }
  }
}

extension StreamConfiguration.RenditionChoice {
  /// Parses `default`, `all`, `none` or a comma-separated list of languages.
  public init?(argument: String) {
    switch argument.lowercased() {
    case "default": self = .default
    case "all": self = .all
    case "none": self = .none
    default:
      let languages = argument.split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      }.filter { !$0.isEmpty }
      guard !languages.isEmpty else { return nil }
      self = .languages(languages)
    }
  }
}
