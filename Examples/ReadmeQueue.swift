import Foundation
import OfflineKit

/// README, "The library": the queue, one content, its progress until it is downloaded.
func readmeQueue(storeURL: URL, movieURL: URL, movieSHA256: String) async throws {
  let manager = try OfflineManager(directory: storeURL)
  let content = try await manager.content(for: OfflineSource(url: movieURL, title: "Movie"))
  try await content.download(DownloadConfiguration(expectedSHA256: movieSHA256))  // starts it
  let progress = Task {
    for await case .progress(let progress) in content.events {
      print(progress.fractionCompleted ?? 0)
    }
  }
  do {
    print("Offline at", try await content.waitUntilDownloaded().path)
  } catch {
    print(error)  // a failure for good, or a cancel
  }
  await manager.close()  // ends every event stream, so the loop above ends too
  await progress.value
}

/// The examples in the doc comments of `OfflineContent` and `OfflineManager`, compiled.
func docCommentExamples(storeURL: URL, movieURL: URL, url: URL) async throws {
  let manager = try OfflineManager(directory: storeURL)
  do {
    let content = try await manager.content(for: OfflineSource(url: movieURL, title: "Movie"))
    try await content.download()  // queued, and the manager works its queue
    print(try await content.waitUntilDownloaded().path)
    await manager.close()  // ends every event stream; downloads left continue next time
  }
  do {
    let content = try await manager.content(for: OfflineSource(url: url, title: "Trailer"))
    try await content.download()  // starts it
    let progress = Task {
      for await case .progress(let progress) in content.events {
        print(progress.fractionCompleted ?? 0)
      }
    }
    print(try await content.waitUntilDownloaded().path)
    progress.cancel()
  }
}
