import Foundation
import OfflineStore

extension OfflineManager {
  /// What the store holds that `sources` may name or collide with: the records of the ids
  /// given and the first of each URL (two queries), ids for the new ones (one more, mostly),
  /// and the names in the shared folder of single files.
  func knownRecords(for sources: [OfflineSource]) throws(OfflineError) -> ContentIntake.Known {
    let ids = sources.compactMap(\.id)
    let urls = sources.filter { $0.id == nil }.map(\.url.absoluteString)
    return ContentIntake.Known(
      byID: try indexStep { try index.contents.records(ids: ids) },
      byURL: try indexStep { try index.contents.firstRecords(urls: urls) },
      unusedIDs: try unusedIDs(count: urls.count, besides: Set(ids)),
      flatNamesOnDisk: files.flatNamesOnDisk())
  }

  /// `count` new ids, none in the index nor in `taken`, checked in one query (again for the
  /// few that were, with 40 random bits almost never).
  func unusedIDs(count: Int, besides taken: Set<String>) throws(OfflineError) -> [String] {
    var ids: [String] = []
    var seen = taken
    while ids.count < count {
      let candidates = (ids.count..<count).map { _ in Self.newID() }.filter {
        seen.insert($0).inserted
      }
      let used = try indexStep { try index.contents.records(ids: candidates) }
      ids += candidates.filter { used[$0] == nil }
    }
    return ids
  }

  /// Eight characters from an alphabet without look-alikes (40 random bits, one draw).
  static func newID() -> String {
    let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
    var bits = UInt64.random(in: 0...UInt64.max)
    return String(
      (0..<8).map { _ in
        defer { bits >>= 5 }
        return alphabet[Int(bits & 31)]
      })
  }
}
