import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The observable per-content model follows the content and carries out its actions.
@MainActor
@Suite(.timed) struct ContentModelTests {
  @Test func followsADownloadToTheEndAndDeletesIt() async throws {
    let origin = try ManagerOrigin(files: ["clip.mp4": 2 << 20])
    let store = try TemporaryDirectory()
    let manager = try OfflineManager(
      directory: store.url, configuration: .init(pollInterval: .milliseconds(50)))
    let content = try await manager.content(for: OfflineSource(url: origin.url("clip.mp4")))
    let model = try await OfflineContentModel(content: content)
    try await manager.start()

    await model.download()
    #expect(await eventually { model.isDownloaded })
    #expect(model.fractionCompleted == 1)
    #expect(!model.isDownloading)
    #expect(model.lastError == nil)

    await model.suspend()  // not allowed when downloaded: the model says why
    #expect(model.lastError?.description.contains("downloaded") == true)

    await model.deleteOfflineData()
    #expect(await eventually { model.state == .notDownloaded })
    await #expect {
      try await content.playbackURL()
    } throws: { ($0 as? OfflineError)?.code == .notPlayable }
    await manager.stop(suspendingRunning: false)
  }

  // Pins: a model made for downloaded content said notDownloaded until its first event, so
  // a SwiftUI view flashed "Download".
  @Test func aModelOfDownloadedContentIsDownloadedFromTheStart() async throws {
    let origin = try ManagerOrigin(files: ["small.bin": 64 << 10])
    let store = try TemporaryDirectory()
    let manager = try OfflineManager(
      directory: store.url, configuration: .init(pollInterval: .milliseconds(50)))
    let content = try await manager.content(for: OfflineSource(url: origin.url("small.bin")))
    try await manager.start()
    try await content.download(DownloadConfiguration())
    for _ in 0..<400 where try await content.state != .downloaded {
      try await Task.sleep(for: .milliseconds(25))
    }
    await manager.stop(suspendingRunning: false)

    let model = try await OfflineContentModel(content: content)
    #expect(model.state == .downloaded)
    #expect(model.isDownloaded)
    #expect(model.fractionCompleted == 1)
    #expect(model.progress?.bytes == 64 << 10)
  }

  private func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<400 where !condition() {
      try? await Task.sleep(for: .milliseconds(25))
    }
    return condition()
  }
}
