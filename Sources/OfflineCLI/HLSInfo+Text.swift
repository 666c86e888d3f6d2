import Foundation
import HLSPlaylist
import OfflineKit

extension HLSInfo {
  /// A listing for people, with the server's text as it came.
  var text: String { text(showing: { $0 }) }

  /// A listing for people; `show` turns each piece of text the server supplied (codecs,
  /// names, languages, group IDs, key formats, errors) into what is printed, for example
  /// with its control characters escaped for a terminal.
  func text(showing show: (String) -> String) -> String {
    var lines: [String] = []
    if isLive { lines.append("LIVE: a live stream cannot be downloaded for offline use.") }
    lines.append(String(format: "Duration: %.1f s in %d segments", duration, segments))
    lines.append(
      "Encryption: " + (encryption.isEmpty ? "none" : encryption.map(show).joined(separator: ", ")))
    if !variants.isEmpty { lines.append("Variants (--variant):") }
    for (index, variant) in variants.enumerated() {
      var parts = ["  \(variant.bandwidth) bit/s"]
      if let resolution = variant.resolution {
        parts.append("\(resolution.width)x\(resolution.height)")
      }
      if let codecs = variant.codecs { parts.append(show(codecs)) }
      let sources = variantSources.indices.contains(index) ? variantSources[index].count : 1
      if sources > 1 { parts.append("\(sources) sources") }
      if let error = variantErrors[index] { parts.append("error: " + show(error)) }
      lines.append(parts.joined(separator: "  "))
    }
    for (title, renditions) in [
      ("Audio (--audio):", audio), ("Subtitles (--subtitles):", subtitles),
    ]
    where !renditions.isEmpty {
      lines.append(title)
      for rendition in renditions {
        let language = show(rendition.language ?? "und")
        let marks =
          (rendition.isDefault ? " default" : "") + (rendition.uri == nil ? " (muxed)" : "")
        lines.append(
          "  \(language)  \"\(show(rendition.name))\"  group \(show(rendition.groupID))\(marks)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// One JSON object for programs; a variant that could not be read has an `error`.
  var json: String {
    let object: [String: Any] = [
      "duration": duration, "segments": segments, "encryption": encryption, "live": isLive,
      "variants": variants.enumerated().map { index, variant -> [String: Any] in
        var fields: [String: Any] = ["bandwidth": variant.bandwidth, "uri": variant.uri]
        if let resolution = variant.resolution {
          fields["resolution"] = "\(resolution.width)x\(resolution.height)"
        }
        fields["codecs"] = variant.codecs
        fields["sources"] =
          variantSources.indices.contains(index) ? variantSources[index] : [variant.uri]
        fields["error"] = variantErrors[index]
        return fields
      },
      "audio": audio.map(Self.fields), "subtitles": subtitles.map(Self.fields),
    ]
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
      let text = String(data: data, encoding: .utf8)
    else { return "{}" }
    return text
  }

  private static func fields(_ rendition: Rendition) -> [String: Any] {
    var fields: [String: Any] = [
      "name": rendition.name, "group": rendition.groupID, "default": rendition.isDefault,
    ]
    fields["language"] = rendition.language
    return fields
  }
}
