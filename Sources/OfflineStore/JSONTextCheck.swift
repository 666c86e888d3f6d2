import Foundation
import OfflineLocks

/// Whether a column's text is JSON, remembering the last texts found to be: a queue's rows
/// mostly carry the same few option texts, and parsing each again on every read was a
/// twentieth of the runner's CPU with a thousand small files.
///
/// Only texts that parse are remembered, so a text that is not JSON is refused every time.
/// Shared by every connection of the process; safe from any thread.
enum JSONTextCheck {
  /// How many texts are remembered (the oldest goes first).
  static let capacity = 32

  private struct Memory {
    var valid: [String] = []
    var parses = 0
  }

  private static let memory = Locked(Memory())

  /// Whether `text` is JSON (fragments allowed).
  static func isJSON(_ text: String) -> Bool {
    if memory.withLock({ $0.valid.contains(text) }) { return true }
    let parsed =
      (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
      != nil
    memory.withLock { memory in
      memory.parses += 1
      guard parsed, !memory.valid.contains(text) else { return }
      if memory.valid.count >= capacity { memory.valid.removeFirst() }
      memory.valid.append(text)
    }
    return parsed
  }

  /// How many texts were parsed so far in this process (for tests).
  static var parses: Int { memory.withLock { $0.parses } }
}
