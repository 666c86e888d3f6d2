import Foundation

/// A number of bytes, as people write sizes (`1048576`, `512K`, `100M`, `1G`, `10MiB`: powers
/// of 1024) and as the tool shows them (KiB, MiB, GiB, as curl and aria2 do).
struct ByteCount: Sendable, Equatable {
  /// The count.
  let bytes: Int64

  /// A count of `bytes`.
  init(_ bytes: Int64) { self.bytes = bytes }

  /// Reads a size; nil when `text` is not one.
  init?(parsing text: String) {
    var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
    for suffix in ["IB", "B"] where digits.hasSuffix(suffix) { digits.removeLast(suffix.count) }
    var shift: Int64 = 0
    if let unit = digits.last, let index = ["K", "M", "G", "T"].firstIndex(of: String(unit)) {
      shift = Int64(10 * (index + 1))
      digits.removeLast()
    }
    guard let value = Double(digits), value >= 0, value.isFinite else { return nil }
    let bytes = value * Double(Int64(1) << shift)
    guard bytes < 9e18 else { return nil }
    self.bytes = Int64(bytes)
  }

  /// `512 B`, `1.5 MiB`.
  static func format(_ bytes: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
  }
}
