import Foundation
import OfflineHTTP
import OfflineKit

/// Opening the store's ``OfflineManager`` for a queue command, and reporting its errors.
enum ManagerAccess {
  /// Opens the manager, warning on standard error when a damaged index was moved aside.
  static func open(
    _ context: CommandContext, parallel: Int = 3, minimumFreeSpace: Int64 = 64 << 20,
    rateLimit: ByteRate? = nil, maxStreamConnections: Int? = nil
  ) throws(OfflineError) -> OfflineManager {
    var configuration = OfflineManager.Configuration(
      parallelDownloads: parallel, minimumFreeSpace: minimumFreeSpace, rateLimit: rateLimit)
    configuration.maxStreamConnections = maxStreamConnections
    // `add`, `resume` and the others queue; only `run` and `serve` work the queue.
    configuration.startsWhenAsked = false
    // Proxy and CA variables come from the run's environment, not the process's.
    configuration.transport = CurlTransport(
      configuration: .init(environment: CurlEnvironment(context.host.environment)))
    let manager = try OfflineManager(
      directory: context.storeDirectory, configuration: configuration)
    let restored = manager.rebuildReport?.restored ?? []
    if let moved = manager.quarantinedIndex {
      context.console.err(
        "Warning: the index was damaged; it was moved to \(moved.path) and a fresh one made."
          + " Downloaded files were kept; \(restored.count) contents were restored from their"
          + " manifests.")
    } else if manager.rebuildReport != nil {
      context.console.err(
        "Warning: the index was empty; \(restored.count) contents were restored from their"
          + " manifests.")
    }
    if manager.rebuildReport != nil {
      for item in restored where item.note != nil {
        context.console.err("  \(item.id): \(item.note ?? "")")
      }
      for item in manager.rebuildReport?.skipped ?? [] {
        context.console.err("  skipped \(item.path): \(item.reason)")
      }
    }
    return manager
  }

  /// Opens the manager and runs `body` with it: its exit code, or 1 after printing the error
  /// that opening or `body` threw.
  static func using(
    _ context: CommandContext,
    _ body: (OfflineManager) async throws(OfflineError) -> Int32
  ) async -> Int32 {
    do throws(OfflineError) {
      return try await body(try open(context))
    } catch {
      return fail(error, context.console)
    }
  }

  /// Prints an error the user can act on and returns exit code 1.
  static func fail(_ error: OfflineError, _ console: Console) -> Int32 {
    var hint = ""
    if case .unknownContent = error.kind { hint = " 'offline ls' lists them." }
    console.err("Error: \(error)\(hint)")
    return ExitCode.failure
  }
}
