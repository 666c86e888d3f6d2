import Foundation
import OfflineKit

/// Sends an admitted request to its route by the first path segment.
struct Router: Sendable {
  let content: ContentRoute

  init(manager: OfflineManager) {
    content = ContentRoute(manager: manager)
  }

  /// The answer to `request`.
  func respond(to request: HTTPRequest) async -> HTTPResponse {
    guard let segments = request.safeSegments else {
      return .text(400, "The path names a file outside the service's folders.")
    }
    switch segments.first {
    case "content":
      return await content.respond(to: request, segments: Array(segments.dropFirst()))
    default:
      return .text(404, "Nothing is at \(RequestGuard.printable(request.rawPath)).")
    }
  }
}
