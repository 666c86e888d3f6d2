import Foundation
import TestSupport

extension InProcessOffline {
  /// What ``get(_:_:timeout:)`` left: the fresh folder (deleted with it), holding the store
  /// in `s/` and the recording in `live/`; the recording's path; what the command said.
  typealias Get = (work: TemporaryDirectory, out: String, result: OfflineRun)

  /// Runs `offline get URL -o <fresh folder>/live ARGUMENTS`, its store in the same fresh
  /// folder's `s/`, and waits until it returns (at most `timeout` seconds, as ``run``).
  static func get(_ url: URL, _ arguments: [String], timeout: Double) async throws -> Get {
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "live").path
    let result = try await run(
      ["--store", work.url.appending(path: "s").path, "get", url.absoluteString, "-o", out]
        + arguments, timeout: timeout)
    return (work, out, result)
  }
}

extension InProcessOffline {
  /// Runs `offline get URL -o <fresh folder>/live ARGUMENTS` as a process of its own, kills
  /// it with SIGKILL once `killWhen` returned for the recording's path (or threw), then runs
  /// the same command in-process until it returns (at most `timeout` seconds): a kill -9
  /// and a rerun at once.
  static func getKilledAndRunAgain(
    _ url: URL, _ arguments: [String], killWhen: (String) async throws -> Void,
    timeout: Double
  ) async throws -> Get {
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "s")
    let out = work.url.appending(path: "live").path
    let command = ["get", url.absoluteString, "-o", out] + arguments
    let process = try OfflineBinary.start(command, store: store)
    do {
      try await killWhen(out)
    } catch {
      kill(process.processIdentifier, SIGKILL)
      _ = await process.waitBounded(seconds: 10)
      throw error
    }
    kill(process.processIdentifier, SIGKILL)
    _ = await process.waitBounded(seconds: 10)
    let again = try await run(["--store", store.path] + command, timeout: timeout)
    return (work, out, again)
  }
}
