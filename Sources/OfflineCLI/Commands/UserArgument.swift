import Foundation
import OfflineHTTP

/// `--user USER[:PASSWORD]` as given: the password nil when left out (then asked for).
struct UserArgument: Sendable {
  let user: String
  let password: String?
}
