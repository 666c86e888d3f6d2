import Foundation
import OfflineHTTP
import OfflineKit

/// A queue's cap as `offline limit` takes it: nil for none.
struct QueueRate: Sendable {
  let rate: ByteRate?
}
