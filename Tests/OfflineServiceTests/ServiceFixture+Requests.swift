import Foundation
import TestSupport
import Testing

extension ServiceFixture {
  /// `POST PATH` to the service with `body` as its JSON, through curl.
  func post(_ path: String, _ body: String) throws -> Curl.Reply {
    try Curl.fetch(
      url(path), ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body])
  }

  /// Adds nginx's `path` (such as `/movie.bin`) through `POST /api/contents`; returns the id
  /// the service answered with.
  func add(_ path: String) throws -> String {
    let added = try post("/api/contents", #"{"urls":["\#(nginx.url(path))"]}"#)
    return try #require((added.json as? [[String: Any]])?.first?["id"] as? String)
  }
}
