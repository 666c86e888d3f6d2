import Foundation
import OfflineStore

extension OfflineManager {
  /// The downloaded file this store holds for `url` (the URL it was added with), for
  /// another machine that asks before fetching from the origin; nil when there is none (no
  /// content with that URL, one not downloaded yet, or a stream: only a single file is told).
  ///
  /// - Throws: ``OfflineError`` (`index`) when the index cannot be read.
  package func peerCopy(of url: URL) throws(OfflineError) -> PeerCopy? {
    let records = try indexStep { try index.contents.records(url: url.absoluteString) }
    for record in records where record.state == .downloaded {
      let snapshot = self.snapshot(of: record)
      let name = snapshot.fileURL.lastPathComponent
      guard !ContentDownload.Kind(url).isStream, name != "index.m3u8", name != "index.mpd",
        let piece = try? index.pieces.pieces(ofContent: record.id).first(where: {
          $0.kind == .file
        }),
        let path = ContentProjection(snapshot).contentPath
      else { continue }
      return PeerCopy(
        id: record.id, state: snapshot.state.rawValue, length: piece.size,
        sha256: piece.sha256.isEmpty ? nil : piece.sha256, etag: piece.etag, contentPath: path,
        chunkSize: piece.chunkSHA256.isEmpty ? nil : ChunkDigests.chunkSize,
        chunkSHA256: piece.chunkSHA256.isEmpty ? nil : piece.chunkSHA256)
    }
    return nil
  }
}
