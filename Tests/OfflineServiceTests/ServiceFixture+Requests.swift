import Foundation
import TestSupport
import Testing

extension ServiceFixture {
  /// `POST PATH` to the service with `body` as its JSON, through curl.
  func post(_ path: String, _ body: String) async throws -> Curl.Reply {
    try await Curl.fetch(
      url(path), ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body])
  }

  /// Adds nginx's `path` (such as `/movie.bin`) through `POST /api/contents`; returns the id
  /// the service answered with.
  func add(_ path: String) async throws -> String {
    let added = try await post("/api/contents", #"{"urls":["\#(nginx.url(path))"]}"#)
    return try #require((added.json as? [[String: Any]])?.first?["id"] as? String)
  }
}
