import Foundation
import HexDigits
import OfflineHTTP
import OfflineStore

extension ContentManifest {
  /// A file's piece checks as a manifest keeps them (``ContentRecord/hasPieceChecks``): a
  /// rebuilt index checks each piece as the lost one would have.
  struct PieceChecksEntry: Codable, Sendable, Equatable {
    /// The length of every piece but the last.
    var length: Int64
    /// The file's length.
    var size: Int64
    /// Each piece's SHA-256, lowercase hex, in file order.
    var hashes: [String]

    /// The checks to keep in the index; nil when they are not whole (a hash that is not
    /// 64 hex digits, a count that does not cover the file).
    var stored: StoredPieceChecks? {
      guard length > 0, size >= 0, Int64(hashes.count) == (size + length - 1) / length,
        hashes.allSatisfy(SHA256.isValidHex)
      else { return nil }
      let bytes = hashes.compactMap { ASCIIHex.bytes(Array($0.lowercased().utf8)) }
      guard bytes.count == hashes.count, bytes.allSatisfy({ $0.count == 32 }) else { return nil }
      return StoredPieceChecks(length: length, size: size, hashes: bytes)
    }
  }

  /// What one source of a file served, as a manifest keeps it (``ContentRecord/hasSourceReports``);
  /// its URL without secrets (no query, no user information).
  struct SourceEntry: Codable, Sendable, Equatable {
    var url: String
    var primary: Bool
    var bytes: Int64
    var badPieces: Int
    var dropped: String?
    /// The source's HLS content steering pathway ID, when it has one.
    var pathway: String? = nil

    /// The report to keep in the index.
    var stored: StoredSourceReport {
      StoredSourceReport(
        url: url, isPrimary: primary, bytes: max(0, bytes), badPieces: max(0, badPieces),
        dropped: dropped, pathway: pathway)
    }
  }
}

extension ContentFiles {
  /// `manifest` with the piece checks and source reports the index keeps for `record`, read
  /// only when its record says there are some (most contents cost no read).
  func addingChecks(to manifest: ContentManifest, of record: ContentRecord) -> ContentManifest {
    var manifest = manifest
    if record.hasPieceChecks, let checks = try? index.contents.pieceChecks(id: record.id) {
      manifest.pieceChecks = ContentManifest.PieceChecksEntry(
        length: checks.length, size: checks.size,
        hashes: checks.hashes.map { ASCIIHex.digits($0) })
    }
    if record.hasSourceReports, let reports = try? index.contents.sourceReports(id: record.id),
      !reports.isEmpty
    {
      manifest.sources = reports.map {
        ContentManifest.SourceEntry(
          url: URL(string: $0.url)?.redactedForDisplay ?? "(unprintable URL)",
          primary: $0.isPrimary, bytes: $0.bytes, badPieces: $0.badPieces, dropped: $0.dropped,
          pathway: $0.pathway)
      }
    }
    return manifest
  }
}
