import Foundation
import HLSPlaylist

extension HLSSteering {
  /// `master` with the pathways `clones` make (the HLS Content Steering specification,
  /// "Pathway Cloning"), and a sentence for each clone left out. Each clone copies the
  /// variants of its `BASE-ID` pathway onto pathway `ID`, with their audio, video and
  /// subtitle groups (copied under new `GROUP-ID`s, so a clone's renditions are fetched at
  /// the clone's URIs), each URI rewritten as ``replacing(_:stableID:perURIs:by:playlistURL:manifestURL:)``
  /// says. A clone whose `ID` is already a pathway, or whose `BASE-ID` is none, is left out,
  /// and so is one whose rewritten URIs are not http(s). Clones apply in order: one may copy
  /// a clone listed before it.
  ///
  /// Pure: `playlistURL` is the multivariant playlist's URL (its URIs are relative to it),
  /// `manifestURL` the steering manifest's (a `PER-VARIANT-URIS` URI is relative to it).
  static func cloned(
    _ master: MasterPlaylist, by clones: [Clone], playlistURL: URL, manifestURL: URL
  ) -> (MasterPlaylist, ignored: [String]) {
    var result = master
    var ignored: [String] = []
    for clone in clones {
      let pathways = Set(result.variants.map { $0.pathwayID ?? ContentSteering.defaultPathwayID })
      guard !pathways.contains(clone.id) else {
        ignored.append("pathway clone \(clone.id) is ignored: the playlist has that pathway")
        continue
      }
      guard pathways.contains(clone.baseID) else {
        ignored.append(
          "pathway clone \(clone.id) is ignored: its BASE-ID \(clone.baseID) is no pathway")
        continue
      }
      do {
        result = try applying(clone, to: result, playlistURL: playlistURL, manifestURL: manifestURL)
      } catch {
        ignored.append("pathway clone \(clone.id) is ignored: \(error.description)")
      }
    }
    return (result, ignored)
  }

  private static func applying(
    _ clone: Clone, to master: MasterPlaylist, playlistURL: URL, manifestURL: URL
  ) throws(Transfer.Error) -> MasterPlaylist {
    var result = master
    let base = master.variants.filter {
      ($0.pathwayID ?? ContentSteering.defaultPathwayID) == clone.baseID
    }
    var groupIDs = Set(master.renditions.map(\.groupID))
    var renamed: [String: String] = [:]
    for old in base.flatMap({ [$0.audioGroup, $0.videoGroup, $0.subtitlesGroup] }).compactMap(
      \.self)
    where renamed[old] == nil {
      var name = "\(old)-\(clone.id)"
      var suffix = 2
      while groupIDs.contains(name) {
        name = "\(old)-\(clone.id)-\(suffix)"
        suffix += 1
      }
      groupIDs.insert(name)
      renamed[old] = name
    }
    for rendition in master.renditions {
      guard let group = renamed[rendition.groupID] else { continue }
      var copy = rendition
      copy.groupID = group
      if let uri = rendition.uri {
        copy.uri = try replacing(
          uri, stableID: attribute("STABLE-RENDITION-ID", of: rendition.otherAttributes),
          perURIs: clone.perRenditionURIs, by: clone, playlistURL: playlistURL,
          manifestURL: manifestURL
        ).absoluteString
      }
      result.renditions.append(copy)
    }
    for variant in base {
      var copy = variant
      copy.pathwayID = clone.id
      copy.audioGroup = variant.audioGroup.map { renamed[$0] ?? $0 }
      copy.videoGroup = variant.videoGroup.map { renamed[$0] ?? $0 }
      copy.subtitlesGroup = variant.subtitlesGroup.map { renamed[$0] ?? $0 }
      copy.uri = try replacing(
        variant.uri, stableID: attribute("STABLE-VARIANT-ID", of: variant.otherAttributes),
        perURIs: clone.perVariantURIs, by: clone, playlistURL: playlistURL,
        manifestURL: manifestURL
      ).absoluteString
      result.variants.append(copy)
    }
    return result
  }

  /// A URI of the base pathway as `clone` rewrites it: the `PER-VARIANT-URIS` (or
  /// `PER-RENDITION-URIS`) entry of its stable ID when there is one, resolved against the
  /// steering manifest; otherwise the URI resolved against the playlist, with its host (and
  /// port, when `HOST` names one) replaced by `HOST` when given. Then each of `PARAMS` is set
  /// as a query parameter, in the order of their names, replacing one of the same name.
  ///
  /// - Throws: ``Transfer/Error`` (`invalidMedia`) when the result is not an http(s) URL.
  static func replacing(
    _ uri: String, stableID: String?, perURIs: [String: String], by clone: Clone,
    playlistURL: URL, manifestURL: URL
  ) throws(Transfer.Error) -> URL {
    var url: URL
    var keepsHost = false
    if let stableID, let given = perURIs[stableID] {
      url = try HLSURI.resolve(given, against: manifestURL, what: "pathway clone")
      keepsHost = true
    } else {
      url = try HLSURI.resolve(uri, against: playlistURL, what: "pathway clone")
    }
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      return url
    }
    if !keepsHost, let host = clone.host, let (name, port) = hostAndPort(host) {
      components.host = name.hasPrefix("[") ? String(name.dropFirst().dropLast()) : name
      if let port { components.port = port }
    }
    if !clone.params.isEmpty {
      var items = (components.queryItems ?? []).filter { clone.params[$0.name] == nil }
      for name in clone.params.keys.sorted() {
        items.append(URLQueryItem(name: name, value: clone.params[name]))
      }
      components.queryItems = items
    }
    guard let rewritten = components.url else {
      throw Transfer.Error(
        .invalidMedia("the pathway clone \(clone.id) makes no URL of \(url.redactedForDisplay)"),
        url: url, destination: "")
    }
    url = try HLSURI.resolve(rewritten.absoluteString, against: playlistURL, what: "pathway clone")
    return url
  }

  /// The value of the quoted attribute `name` among `attributes`, its quotes removed.
  static func attribute(_ name: String, of attributes: [Attribute]) -> String? {
    guard let raw = attributes.first(where: { $0.name == name })?.value else { return nil }
    return raw.count >= 2 && raw.hasPrefix("\"") && raw.hasSuffix("\"")
      ? String(raw.dropFirst().dropLast()) : raw
  }
}
