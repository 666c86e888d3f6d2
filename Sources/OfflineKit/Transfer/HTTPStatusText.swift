import Foundation
import OfflineHTTP
import OfflineStore

/// Reason phrases for the HTTP status codes a download meets, for messages.
enum HTTPStatusText {
  static func phrase(_ code: Int) -> String {
    switch code {
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 408: "Request Timeout"
    case 410: "Gone"
    case 416: "Range Not Satisfiable"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    default: "(HTTP status)"
    }
  }
}
