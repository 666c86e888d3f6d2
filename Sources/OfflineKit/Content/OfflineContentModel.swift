import Foundation
import Observation

/// One content as a view model for SwiftUI-style UIs: observable state and progress, and the
/// actions, kept up to date from the content's events.
///
/// The download manager that app tutorials write by hand, done once: it follows the content
/// from the moment it is made, including changes made by other processes or other views.
///
/// ```swift
/// let model = try await OfflineContentModel(content: content)  // starts in the true state
/// Button(model.isDownloaded ? "Delete" : "Download") {
///   Task { model.isDownloaded ? await model.deleteOfflineData() : await model.download() }
/// }
/// ProgressView(value: model.fractionCompleted ?? 0)
/// ```
///
/// Lives on the main actor; the events are consumed by a task that ends with the model.
@MainActor
@Observable
public final class OfflineContentModel {
  /// The content.
  public let content: OfflineContent
  /// The state.
  public private(set) var state: OfflineState = .notDownloaded
  /// The latest progress.
  public private(set) var progress: OfflineProgress?
  /// Why a download is not moving, when it is not.
  public private(set) var waitReason: WaitReason?
  /// The last error: the download's (as ``OfflineContent/Snapshot/lastError``), or that of
  /// the model's last action when it was refused. Its `description` is a sentence a user can
  /// act on; its ``OfflineError/code`` says what happened.
  public private(set) var lastError: OfflineError?
  @ObservationIgnored private var listener: Task<Void, Never>?

  /// Whether the content is queued or downloading.
  public var isDownloading: Bool { state == .downloading }
  /// Whether the file is complete and verified on disk.
  public var isDownloaded: Bool { state == .downloaded }
  /// The fraction done, when the total is known.
  public var fractionCompleted: Double? {
    state == .downloaded ? 1 : progress?.fractionCompleted
  }

  /// Follows `content` from now on, starting from `snapshot` (its state, progress, wait
  /// reason and last error), so a view shows the truth from its first frame.
  public init(content: OfflineContent, snapshot: OfflineContent.Snapshot) {
    self.content = content
    state = snapshot.state
    waitReason = snapshot.state == .downloading ? snapshot.waitReason : nil
    lastError = snapshot.lastError
    if snapshot.state != .notDownloaded {
      progress = OfflineProgress(
        bytes: snapshot.bytes, total: snapshot.total, totalIsEstimate: snapshot.totalIsEstimate,
        bytesPerSecond: 0)
    }
    listen()
  }

  /// Reads where `content` stands, then follows it: the model starts in the true state (a
  /// downloaded content is downloaded from the first frame, never a flash of "Download").
  ///
  /// - Throws: ``OfflineError`` when the index cannot be read.
  public convenience init(content: OfflineContent) async throws(OfflineError) {
    self.init(content: content, snapshot: try await content.snapshot)
  }

  private func listen() {
    let content = content
    listener = Task { [weak self] in
      for await event in content.events {
        guard let self else { return }
        self.apply(event)
      }
    }
  }

  isolated deinit {
    listener?.cancel()
  }

  /// Queues the download.
  public func download(_ configuration: DownloadConfiguration = DownloadConfiguration()) async {
    await act { () async throws(OfflineError) in try await self.content.download(configuration) }
  }

  /// Pauses, keeping partial data.
  public func suspend() async {
    await act { () async throws(OfflineError) in try await self.content.suspend() }
  }

  /// Goes on after a pause.
  public func resume() async {
    await act { () async throws(OfflineError) in try await self.content.resume() }
  }

  /// Stops and deletes partial data.
  public func cancel() async {
    await act { () async throws(OfflineError) in try await self.content.cancel() }
  }

  /// Deletes the downloaded file.
  public func deleteOfflineData() async {
    await act { () async throws(OfflineError) in try await self.content.deleteOfflineData() }
  }

  private func act(_ action: @escaping () async throws(OfflineError) -> Void) async {
    do {
      try await action()
      lastError = nil
    } catch {
      lastError = error
    }
  }

  private func apply(_ event: OfflineContent.Event) {
    switch event {
    case .changed(let snapshot):
      state = snapshot.state
      waitReason = snapshot.state == .downloading ? snapshot.waitReason : nil
      lastError = snapshot.lastError
      if snapshot.state == .notDownloaded { progress = nil }
    case .progress(let value):
      progress = value
      waitReason = nil
    case .restarted:
      progress = nil
    case .finished(.failure(let error)) where error.code != .canceled:
      lastError = error
    case .finished, .keysRenewed:
      break
    }
  }
}
