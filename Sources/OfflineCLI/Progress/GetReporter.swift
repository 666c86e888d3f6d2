import Foundation
import OfflineKit
import OfflineLocks

/// Shows a `get` to the user: a progress line on a terminal's standard error, messages for
/// resumes, restarts and retries, and with `--json` one JSON object per event on standard
/// output instead.
final class GetReporter: Sendable {
  private let console: Console
  private let quiet: Bool
  private let json: Bool
  private let progressLineShown = Locked(false)
  private let redraw = RedrawPace()

  init(console: Console, quiet: Bool, json: Bool) {
    self.console = console
    self.quiet = quiet
    self.json = json
  }

  func report(_ event: Transfer.Event) {
    if json {
      console.out(JSONLine.encode(event))
      return
    }
    guard !quiet else { return }
    switch event {
    case .requesting(let offset):
      if offset > 0 { message("Resuming at \(ByteCount.format(offset)).") }
    case .restarted(let reason):
      message("Starting over from byte 0: \(Self.explain(reason)).")
    case .retrying(let attempt, let delay, let error):
      message(
        TerminalText.message("\(error)")
          + " Retrying in \(Self.seconds(delay)) (attempt \(attempt + 1)).")
    case .progress(let progress):
      guard console.stderrIsTerminal, redraw.isDue() else { return }
      progressLineShown.withLock { $0 = true }
      let line = ProgressLine.withBar(
        ProgressLine.render(progress), fraction: progress.fractionCompleted,
        width: console.columns)
      console.errRaw("\r" + line + "\u{1B}[K")
    case .verifying:
      break
    case .sourceDropped(let url, let reason):
      message("Not using the mirror \(url.redactedForDisplay): \(reason).")
    case .refetchingPieces(let pieces):
      let list = pieces.map(String.init).joined(separator: ", ")
      message("Fetching again the piece\(pieces.count == 1 ? "" : "s") \(list): wrong SHA-256.")
    case .peerInsteadOfOrigin(let url, let reason):
      message(
        "The origin cannot serve the file: \(reason). Taking it whole from the peer"
          + " \(url.redactedForDisplay), its bytes checked against the length and SHA-256 of"
          + " the peer's own record, since the origin could not confirm them.")
    }
  }

  func finished(_ outcome: Transfer.Outcome) {
    if json {
      console.out(JSONLine.encode(outcome))
      return
    }
    guard !quiet else { return }
    endProgressLine()
    let sha = outcome.sha256.map { ", SHA-256 \($0)" } ?? ""
    if outcome.wasAlreadyComplete {
      let size = ByteCount.format(outcome.length)
      // "verified" only for bytes this run read and hashed.
      switch outcome.check {
      case .sha256:
        console.err("Already complete and verified: \(outcome.destination) (\(size)\(sha)).")
      case .unchangedSinceDownload:
        console.err(
          "Already complete: \(outcome.destination) (\(size)\(sha)), unchanged on disk since"
            + " its download.")
      case .length:
        console.err(
          "Already complete: \(outcome.destination) (\(size)); its length matches, but no"
            + " checksum was recorded to check its bytes.")
      }
    } else {
      console.err("Saved \(outcome.destination) (\(ByteCount.format(outcome.length))\(sha)).")
      // A dropped source was told when it was dropped.
      for line in SourceLines.lines(outcome.sources.filter { $0.dropped == nil }) {
        console.err("  " + line)
      }
    }
  }

  /// Progress of a stream: like a file's, with segments and an estimated total marked `~`.
  func reportStream(_ progress: OfflineProgress) {
    if json {
      console.out(JSONLine.encodeStream(progress))
      return
    }
    guard !quiet, console.stderrIsTerminal, redraw.isDue() else { return }
    progressLineShown.withLock { $0 = true }
    var line = ProgressLine.render(progress)
    if progress.totalIsEstimate { line = line.replacingOccurrences(of: " / ", with: " / ~") }
    if let total = progress.segmentsTotal {
      line += "  (\(progress.segmentsDone ?? 0)/\(total) segments)"
    } else {
      line += "  (\(progress.segmentsDone ?? 0) segments recorded)"  // a live recording
    }
    line = ProgressLine.withBar(
      line, fraction: progress.fractionCompleted, width: console.columns)
    console.errRaw("\r" + line + "\u{1B}[K")
  }

  /// The stream is live and is being recorded: said before anything else, on standard
  /// error (with `--json` a `recording` event on standard output).
  func recordingLive(_ playlist: URL) {
    if json {
      console.out(JSONLine.object(["event": "recording", "url": playlist.redactedForDisplay]))
      return
    }
    guard !quiet else { return }
    endProgressLine()
    console.err(
      "Recording live stream \(playlist.redactedForDisplay) until it ends; Ctrl-C stops"
        + " the recording and keeps it playable.")
  }

  /// A stream is on disk.
  func finishedStream(_ index: URL, alreadyComplete: Bool, outcome: StreamOutcome? = nil) {
    if json {
      console.out(
        JSONLine.encodeStream(index: index, alreadyComplete: alreadyComplete, outcome: outcome))
      return
    }
    guard !quiet else { return }
    endProgressLine()
    if alreadyComplete {
      console.err("Already complete: \(index.path)")
    } else if let outcome {
      console.err(
        "Saved \(index.path) (\(outcome.segments) segments, \(ByteCount.format(outcome.bytes)),"
          + String(format: " %.1f s).", outcome.duration))
    }
  }

  /// Shows how a `get` that threw ended (stopped by a signal, or failed) and returns its
  /// exit status.
  func ended(with error: Transfer.Error) -> Int32 {
    if case .canceled = error.kind {
      stopped()
    } else {
      failed(error)
    }
    return ExitCode.failure
  }

  func failed(_ error: Transfer.Error) {
    if json { console.out(JSONLine.encode(error)) }
    if case .destinationBusy = error.kind {
      failed("\(error) Run it again when that one ends, or add --wait to wait for it.")
      return
    }
    failed("\(error)")
  }

  /// A signal stopped the download: not an error, the next run resumes.
  func stopped() {
    if json { console.out(JSONLine.stopped) }
    guard !quiet else { return }
    endProgressLine()
    console.err("Stopped; the partial data is kept. Run the same command again to resume.")
  }

  /// A line the library's run went on without (``ContentDownload``'s log: a content steering
  /// manifest that did not load, a pathway change): a `warning` event with `--json`, a
  /// `Warning:` line on standard error otherwise (none with `--quiet`). Called from the
  /// download's tasks.
  func libraryNote(_ line: String) {
    if json {
      console.out(JSONLine.object(["event": "warning", "message": line]))
      return
    }
    guard !quiet else { return }
    message("Warning: " + TerminalText.message(line) + ".")
  }

  func failed(_ message: String) {
    endProgressLine()
    console.err("Error: " + TerminalText.message(message))
  }

  private func message(_ text: String) {
    endProgressLine()
    console.err(text)
  }

  private func endProgressLine() {
    let shown = progressLineShown.withLock { shown in
      defer { shown = false }
      return shown
    }
    if shown { console.errRaw("\n") }
  }

  static func explain(_ reason: Transfer.RestartReason) -> String {
    switch reason {
    case .noValidator: "the server gave no ETag or Last-Modified to resume safely"
    case .resourceChanged: "the remote file changed since the partial download"
    case .rangesIgnored: "the server ignores ranges and sent the whole file"
    case .rangeMismatch: "the server sent other bytes than asked"
    case .lengthChanged: "the server stated another length for the file than before"
    case .unknownPartialFile: "the partial file has no journal, so it cannot be trusted"
    case .encodingChanged:
      "the server answered the resume in another content encoding than the bytes on disk"
    case .completedFileChanged:
      "the file was changed on disk since it was downloaded"
    }
  }

  static func seconds(_ duration: Duration) -> String {
    let (whole, atto) = duration.components
    return String(format: "%.1f s", Double(whole) + Double(atto) / 1e18)
  }
}
