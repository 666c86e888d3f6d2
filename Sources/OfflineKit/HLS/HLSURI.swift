import Foundation
import HLSPlaylist
import OfflineHTTP

/// Resolving a playlist's URIs against where it came from, refusing what is not http(s).
enum HLSURI {
  static func resolve(_ uri: String, against base: URL, what: String) throws(Transfer.Error) -> URL
  {
    guard let url = URL(string: uri, relativeTo: base)?.absoluteURL, url.isHTTPWithHost else {
      throw Transfer.Error(
        .invalidMedia("the \(what) URI \"\(uri.prefix(200))\" is not an http or https URL"),
        url: base, destination: "")
    }
    return url
  }
}
