import Foundation
import HexDigits
import OfflineHTTP
import OfflineKit

/// The body of `POST /api/contents`: the options of `offline add`.
///
/// ```json
/// {"urls": ["https://example.com/a.mp4"], "title": "A", "sha256": "…", "priority": 1,
///  "connections": 4, "variant": "lowest", "audio": "en,fr", "subtitles": "all"}
/// ```
///
/// A live stream's options are those of ``AddRequestLive``, in the same object.
struct AddRequest: Decodable, Sendable {
  var urls: [String]
  var id: String?
  var title: String?
  var sha256: String?
  var priority: Int?
  var connections: Int?
  var variant: String?
  var audio: String?
  var subtitles: String?
  /// `fromStart`, `liveOffset`, `recordFor`, `recordUntil`, `split`, `endAfterSilence`.
  var live: AddRequestLive

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    urls = try container.decode([String].self, forKey: .urls)
    id = try container.decodeIfPresent(String.self, forKey: .id)
    title = try container.decodeIfPresent(String.self, forKey: .title)
    sha256 = try container.decodeIfPresent(String.self, forKey: .sha256)
    priority = try container.decodeIfPresent(Int.self, forKey: .priority)
    connections = try container.decodeIfPresent(Int.self, forKey: .connections)
    variant = try container.decodeIfPresent(String.self, forKey: .variant)
    audio = try container.decodeIfPresent(String.self, forKey: .audio)
    subtitles = try container.decodeIfPresent(String.self, forKey: .subtitles)
    live = try AddRequestLive(from: decoder)
  }

  private enum CodingKeys: String, CodingKey {
    case urls, id, title, sha256, priority, connections, variant, audio, subtitles
  }

  /// The sources and configuration, or the sentence that says what is wrong.
  func resolved() -> Result<([OfflineSource], DownloadConfiguration), AddRequestError> {
    guard !urls.isEmpty else {
      return .failure(AddRequestError("Name at least one URL in 'urls'."))
    }
    if (id != nil || title != nil || sha256 != nil) && urls.count != 1 {
      return .failure(AddRequestError("'id', 'title' and 'sha256' go with one URL."))
    }
    if let sha256, !ASCIIHex.isDigits(sha256, count: 64) {
      return .failure(AddRequestError("'sha256' takes 64 hexadecimal digits."))
    }
    if let connections, connections < 1 {
      return .failure(AddRequestError("'connections' takes a whole number above 0."))
    }
    var hls = StreamConfiguration()
    if let variant {
      guard let choice = StreamConfiguration.VariantChoice(argument: variant) else {
        return .failure(AddRequestError("'variant' takes 'highest', 'lowest' or a bitrate."))
      }
      hls.variant = choice
    }
    if let audio {
      guard let choice = StreamConfiguration.RenditionChoice(argument: audio), choice != .none
      else {
        return .failure(AddRequestError("'audio' takes languages, 'default' or 'all'."))
      }
      hls.audio = choice
    }
    if let subtitles {
      guard let choice = StreamConfiguration.RenditionChoice(argument: subtitles),
        choice != .default
      else {
        return .failure(AddRequestError("'subtitles' takes languages, 'none' or 'all'."))
      }
      hls.subtitles = choice
    }
    switch live.applied(to: hls.live) {
    case .success(let options): hls.live = options
    case .failure(let error): return .failure(error)
    }
    var sources: [OfflineSource] = []
    for text in urls {
      guard let url = URL(string: text), url.isHTTPWithHost else {
        return .failure(
          AddRequestError("'\(RequestGuard.printable(text))' is not an http or https URL."))
      }
      sources.append(OfflineSource(url: url, id: id, title: title))
    }
    let choice: Transfer.Connections =
      switch connections {
      case nil: .adaptive
      case 1: .single
      case let count?: .fixed(count)
      }
    do {
      let config = try DownloadConfiguration(
        expectedSHA256: sha256, priority: priority ?? 0, stream: hls, connections: choice)
      return .success((sources, config))
    } catch {
      return .failure(AddRequestError(error.description))
    }
  }
}

/// Why an add request cannot be carried out.
struct AddRequestError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
