import Foundation
import OfflineKit

/// README, "The library": the queue, one content, its events until it ends.
func readmeQueue(storeURL: URL, movieURL: URL, movieSHA256: String) async throws {
  let manager = try OfflineManager(directory: storeURL)
  let content = try await manager.content(for: OfflineSource(url: movieURL, title: "Movie"))
  try await content.download(DownloadConfig(expectedSHA256: movieSHA256))
  try await manager.start()  // nothing downloads until the manager works the queue
  events: for await event in await content.events {
    switch event {
    case .progress(let progress): print(progress.fractionCompleted ?? 0)
    case .error(let error): print(error)
    case .finished:
      print("Offline at", try await content.offlineSource?.path ?? "")
      break events
    case .suspended, .canceled: break events
    default: break
    }
  }
  await manager.stop(suspendingRunning: true)
}

/// The examples in the doc comments of `OfflineContent` and `OfflineManager`, compiled.
func docCommentExamples(storeURL: URL, movieURL: URL, url: URL) async throws {
  let manager = try OfflineManager(directory: storeURL)
  do {
    let content = try await manager.content(for: OfflineSource(url: movieURL, title: "Movie"))
    try await content.download()  // queued: nothing downloads before start()
    try await manager.start()
  }
  do {
    let content = try await manager.content(for: OfflineSource(url: url, title: "Trailer"))
    try await content.download()  // queued; the manager's start() runs it
    events: for await event in await content.events {
      if case .finished = event {
        print(try await content.offlineSource?.path ?? "")
        break events
      }
    }
  }
}
