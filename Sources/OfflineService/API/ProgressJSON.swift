import Foundation
import OfflineKit

/// A progress event's data.
struct ProgressJSON: Encodable {
  var id: String
  var bytes: Int64
  var total: Int64?
  var totalIsEstimate: Bool
  var bytesPerSecond: Double
  var secondsRemaining: Double?
  var fraction: Double?

  init(id: String, _ progress: OfflineProgress) {
    self.id = id
    bytes = progress.bytes
    total = progress.total
    totalIsEstimate = progress.totalIsEstimate
    bytesPerSecond = progress.bytesPerSecond.isFinite ? progress.bytesPerSecond : 0
    secondsRemaining = progress.secondsRemaining.flatMap { $0.isFinite ? $0 : nil }
    fraction = progress.fractionCompleted
  }
}
