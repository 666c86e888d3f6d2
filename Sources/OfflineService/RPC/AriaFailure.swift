import Foundation
import OfflineHTTP
import OfflineKit

/// A JSON-RPC error: aria2 uses code 1 for its own failures.
struct AriaFailure: Error {
  let code: Int
  let message: String
}
