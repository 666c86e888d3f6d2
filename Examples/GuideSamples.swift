import Foundation
import OfflineKit

// The code samples of the DocC articles in Sources/OfflineKit/OfflineKit.docc, compiled by
// every build; Tests/OfflineKitTests/DocCSamplesTests.swift checks that each article shows
// exactly the body of one of these functions.

/// "Getting started": one content, from queue to offline.
func guideGettingStarted(storeURL: URL, movieURL: URL, movieSHA256: String) async throws {
  let manager = try OfflineManager(directory: storeURL)
  let content = try await manager.content(for: OfflineSource(url: movieURL, title: "Movie"))
  try await content.download(DownloadConfiguration(expectedSHA256: movieSHA256))
  let progress = Task {
    for await case .progress(let progress) in content.events {
      print(progress.fractionCompleted ?? 0)
    }
  }
  let file = try await content.waitUntilDownloaded()
  print("Play", file.path)
  await manager.close()  // ends every event stream, so the loop above ends too
  await progress.value
}

/// "The state table": a view model that starts in the true state.
@MainActor
func guideContentModel(content: OfflineContent) async throws {
  let model = try await OfflineContentModel(content: content)
  if model.isDownloaded {
    print("Ready offline")
  } else if let fraction = model.fractionCompleted {
    print("Downloading", Int(fraction * 100), "%")
  }
}

/// "HLS offline": a variant, audio and subtitles chosen, then queued.
func guideHLS(storeURL: URL, playlistURL: URL) async throws {
  let manager = try OfflineManager(directory: storeURL)
  let stream = try await manager.content(for: OfflineSource(url: playlistURL, title: "Lecture"))
  var config = DownloadConfiguration()
  config.stream = StreamConfiguration(
    variant: .minimumBitrate(2_000_000), audio: .languages(["en", "de"]),
    subtitles: .languages(["en"]))
  try await stream.download(config)
}

/// "The cache": bytes from the cache or the network.
func guideCache(storeURL: URL, thumbnailURL: URL) async throws {
  let cache = try FileCache(store: storeURL)
  let loaded = try await cache.data(for: thumbnailURL)
  print(loaded.value.count, "bytes from", loaded.source)
  if loaded.isStale {
    print("offline: showing the copy from before")
  }
}

/// ``OfflineError/Code``'s sample: branching on a failure's code.
func guideErrorCodes(content: OfflineContent) async {
  do throws(OfflineError) {
    _ = try await content.waitUntilDownloaded()
  } catch  where error.code == .canceled {
    // The user canceled it: nothing to report.
  } catch {
    print(error.description)
  }
}

/// `OfflineFileReader`'s example: the first 64 KiB of a file that may still be downloading.
func readerReadsWhileDownloading(content: OfflineContent) async throws {
  let reader = try await content.openFileReader(restrictedToAssetCache: false)
  defer { reader.close() }
  let head = try await reader.bytes(at: 0, count: 64 << 10)  // waits for them if needed
  print(head.count)
}
