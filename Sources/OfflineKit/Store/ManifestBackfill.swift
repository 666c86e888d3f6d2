import Foundation
import OfflineStore

/// Gives the contents of a store made before manifests existed their manifests, once: the
/// first time the store is opened by a process that may change files (the runner lock's
/// holder), every queued content goes into the ledger and every suspended or downloaded one
/// gets its folder manifest, as the index has them. A marker file (`.manifests-v1` in the
/// store) says it is done; a fresh store gets the marker at once.
struct ManifestBackfill {
  static let markerName = ".manifests-v1"
  let files: ContentFiles

  func runIfNeeded() {
    let marker = files.directory.appending(path: Self.markerName)
    guard DurableFile.kind(marker.path) == .missing else { return }
    var queued: [ContentRecord] = []
    for record in (try? files.index.contents.all()) ?? [] where !record.pendingCleanup {
      switch record.state {
      case .downloading: queued.append(record)
      case .suspended: files.recordSuspended(record)
      case .downloaded:
        let journal = try? files.index.transfers.record(
          forDestination: files.destination(of: record))
        files.recordDownloaded(
          record, length: record.total ?? record.bytes, sha256: journal?.sha256)
      default: break
      }
    }
    files.recordQueued(queued)
    DurableFile.write(Data("1\n".utf8), to: marker)
  }
}
