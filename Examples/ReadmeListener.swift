import Foundation
import OfflineKit

/// The listener of a player SDK (finished, progress, suspended, resumed, canceled, error).
protocol DownloadListener: Sendable {
  func onProgress(_ progress: OfflineProgress)
  func onSuspended()
  func onResumed()
  func onFinished(_ file: URL)
  func onCanceled()
  func onError(_ error: OfflineError)
}

/// README, "Events": that listener fed from the one event sequence rather than a second API.
func listen(to content: OfflineContent, _ listener: some DownloadListener) async {
  var state: OfflineState?
  for await event in content.events {
    switch event {
    case .changed(let snapshot):  // one per change, the first is where it stands
      if state == .downloading, snapshot.state == .suspended { listener.onSuspended() }
      if state == .suspended, snapshot.state == .downloading { listener.onResumed() }
      state = snapshot.state
    case .progress(let progress):
      listener.onProgress(progress)
    case .finished(.success(let file)):  // one per attempt
      listener.onFinished(file)
    case .finished(.failure(let error)) where error.code == .canceled:
      listener.onCanceled()
    case .finished(.failure(let error)):
      listener.onError(error)
    case .restarted, .keysRenewed:
      break
    }
  }
}
