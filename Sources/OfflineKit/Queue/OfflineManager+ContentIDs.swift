import Foundation
import OfflineStore

extension OfflineManager {
  /// The records that `sources` may name already: by the ids given, and the first by each
  /// URL, read in two queries.
  func knownRecords(for sources: [OfflineSource]) throws(OfflineError)
    -> (byID: [String: ContentRecord], byURL: [String: ContentRecord])
  {
    let ids = sources.compactMap(\.id)
    let urls = sources.filter { $0.id == nil }.map(\.url.absoluteString)
    return (
      try indexStep { try index.contents.records(ids: ids) },
      try indexStep { try index.contents.firstRecords(urls: urls) }
    )
  }

  /// The record `source` names already (its id's, else its URL's first), from `known`.
  func existingRecord(
    for source: OfflineSource,
    known: (byID: [String: ContentRecord], byURL: [String: ContentRecord])
  ) throws(OfflineError) -> ContentRecord? {
    if let id = source.id {
      guard let record = known.byID[id] else { return nil }
      guard record.url == source.url.absoluteString else {
        throw OfflineError(.duplicateID(id), contentID: id)
      }
      return record
    }
    return known.byURL[source.url.absoluteString]
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
