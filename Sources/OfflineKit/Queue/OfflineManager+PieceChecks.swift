import Foundation
import HexDigits
import OfflineStore

extension OfflineManager {
  /// Keeps the piece checks of `sources` (``OfflineSource/pieceChecks``) for their contents,
  /// `ids` in the same order, before their records are written (so a runner in another
  /// process never starts one without them). A source without checks leaves what an earlier
  /// call kept.
  func keepPieceChecks(of sources: [OfflineSource], ids: [String]) throws(OfflineError) {
    for (source, id) in zip(sources, ids) {
      guard let checks = source.pieceChecks else { continue }
      let stored = StoredPieceChecks(
        length: checks.length, size: checks.size,
        hashes: checks.hashes.map { ASCIIHex.bytes(Array($0.utf8)) ?? [] })
      try indexStep { try index.contents.setPieceChecks(stored, id: id) }
    }
  }

  /// The piece checks kept for content `id`, nil when none are.
  ///
  /// - Throws: ``OfflineError`` (`index`) when they cannot be read or do not cover the file
  ///   they describe: a download never goes ahead without them.
  func keptPieceChecks(of id: String) throws(OfflineError) -> PieceChecks? {
    try indexStep { try index.contents.pieceChecks(id: id) }.map {
      PieceChecks(length: $0.length, size: $0.size, hashes: $0.hashes.map { ASCIIHex.digits($0) })
    }
  }
}
