#if canImport(CAVFormat)
  import CAVFormat
  import Foundation
  import Synchronization

  /// Where libav's log goes: the sinks of the exports running now, never stdout or stderr.
  ///
  /// libav has one log callback per process, and its messages do not say which export they
  /// belong to, so each message goes to every running export's sink. The callback is installed
  /// once, on the first export; it drops messages below `AV_LOG_WARNING`.
  enum LibAVLog {
    /// The sinks by registration, the next registration number, and the start of a line
    /// libav has not finished (it logs some lines in pieces).
    private struct Registry {
      var sinks: [Int: @Sendable (ExportLogMessage) -> Void] = [:]
      var next = 0
      var pending = ""
    }

    private static let registry = Mutex(Registry())

    private static let installation: Void = ok_av_log_install { level, line in
      LibAVLog.receive(level, line)
    }

    /// Sends libav's messages to `sink` until `remove` is called with the returned number.
    static func add(_ sink: @escaping @Sendable (ExportLogMessage) -> Void) -> Int {
      _ = installation
      return registry.withLock { registry in
        registry.next += 1
        registry.sinks[registry.next] = sink
        return registry.next
      }
    }

    /// Stops sending messages to the sink `add` returned `number` for.
    static func remove(_ number: Int) {
      _ = registry.withLock { $0.sinks.removeValue(forKey: number) }
    }

    /// The C callback: one formatted piece of a line at a libav level. Runs on whatever
    /// thread libav logs from; a line goes out once its newline arrives, to the sinks called
    /// outside the lock.
    private static func receive(_ level: Int32, _ piece: UnsafePointer<CChar>?) {
      guard let piece else { return }
      let text = String(cString: piece)
      let (line, sinks) = registry.withLock { registry in
        registry.pending += text
        guard registry.pending.hasSuffix("\n") else {
          return (String?.none, [@Sendable (ExportLogMessage) -> Void]())
        }
        defer { registry.pending = "" }
        return (
          registry.pending.trimmingCharacters(in: .whitespacesAndNewlines),
          Array(registry.sinks.values)
        )
      }
      guard let line, !line.isEmpty else { return }
      let message = ExportLogMessage(
        level: level <= AV_LOG_ERROR ? .error : .warning, text: "libav: " + line)
      for sink in sinks { sink(message) }
    }
  }
#endif
