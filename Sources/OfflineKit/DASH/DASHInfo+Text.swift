import Foundation

extension DASHInfo {
  /// A listing for people, with the server's text as it came.
  public var text: String { text(showing: { $0 }) }

  /// A listing for people; `show` turns each piece of text the server supplied (ids,
  /// codecs, languages, roles, schemes) into what is printed, for example with its control
  /// characters escaped for a terminal.
  public func text(showing show: (String) -> String) -> String {
    var lines: [String] = []
    if isLive {
      lines.append("LIVE: a live presentation; get records it until it ends or is stopped.")
    }
    lines.append(
      String(format: "Duration: %.1f s in %d period", duration, periods.count)
        + (periods.count == 1 ? "" : "s"))
    lines.append(
      "Protection: "
        + (protection.isEmpty
          ? "none" : protection.map(show).joined(separator: ", ") + " (cannot be stored)"))
    if !sources.isEmpty {
      lines.append("Sources: " + sources.map(show).joined(separator: ", "))
    }
    if let steeringServer {
      lines.append("Steering: \(show(steeringServer)) orders the sources while a download runs")
    }
    for (index, period) in periods.enumerated() {
      var title = "Period \(index + 1)"
      if let id = period.id { title += " \"\(show(id))\"" }
      if let start = period.start, let duration = period.duration {
        title += String(format: " (from %.1f s, %.1f s)", start, duration)
      }
      lines.append(title + ":")
      for (kind, heading) in [
        ("video", "Video (--variant):"), ("audio", "Audio (--audio):"),
        ("text", "Subtitles (--subtitles):"), ("other", "Not downloaded:"),
      ] {
        let sets = period.sets.filter { $0.kind == kind }
        guard !sets.isEmpty else { continue }
        lines.append("  " + heading)
        for set in sets {
          var head = "    " + show(set.language ?? "und")
          if !set.roles.isEmpty { head += "  " + set.roles.map(show).joined(separator: ",") }
          if kind != "video" { lines.append(head) }
          for track in set.representations {
            let rate = track.bandwidth.map { "\($0) bit/s" } ?? "bandwidth unknown"
            var parts = [(kind == "video" ? "    " : "      ") + rate]
            if let resolution = track.resolution { parts.append(resolution) }
            if let codecs = track.codecs { parts.append(show(codecs)) }
            if let mime = track.mimeType { parts.append(show(mime)) }
            parts.append("id " + show(track.id))
            lines.append(parts.joined(separator: "  "))
          }
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// One JSON object for programs.
  public var json: String {
    var object: [String: Any] = [
      "kind": "dash", "duration": duration, "live": isLive, "protection": protection,
      "periods": periods.map { period -> [String: Any] in
        var fields: [String: Any] = [
          "adaptationSets": period.sets.map { set -> [String: Any] in
            var fields: [String: Any] = [
              "type": set.kind, "roles": set.roles,
              "representations": set.representations.map { track -> [String: Any] in
                // An unknown bandwidth is null, so a program tells it from a missing key.
                var fields: [String: Any] = [
                  "id": track.id, "bandwidth": track.bandwidth.map { $0 as Any } ?? NSNull(),
                ]
                fields["resolution"] = track.resolution
                fields["codecs"] = track.codecs
                fields["mimeType"] = track.mimeType
                return fields
              },
            ]
            fields["language"] = set.language
            return fields
          }
        ]
        fields["id"] = period.id
        fields["start"] = period.start
        fields["duration"] = period.duration
        return fields
      },
    ]
    if !sources.isEmpty { object["sources"] = sources }
    object["steering"] = steeringServer
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
      let text = String(data: data, encoding: .utf8)
    else { return "{}" }
    return text
  }
}
