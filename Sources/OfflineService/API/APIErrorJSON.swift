import Foundation
import OfflineKit

/// The body of an error answer.
struct APIErrorJSON: Encodable {
  var error: String
  var kind: String
  var state: String?
}
