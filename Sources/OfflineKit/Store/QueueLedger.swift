import Foundation

/// The manifests of queued contents, written in batches: `content/.queue/q-<first>-<last>-<tag>.json`,
/// each a JSON array of up to ``chunkSize`` ``ContentManifest`` entries whose sequences lie
/// between `first` and `last`.
///
/// Adding 10,000 URLs writes 20 small files instead of 10,000 folders and manifests (see
/// `docs/Manifest.md` for the cost). A content's own folder manifest, once it has one, is the
/// newer word; its ledger entry stays until a cancel or a delete removes it (before the index
/// records the change, so nothing cancelled comes back from the ledger). A flat file
/// (``ContentFiles/flatFolder``) has no folder manifest: when it is downloaded its batch's
/// `downloaded` manifests go into one more chunk, and a rebuild takes a content's
/// `downloaded` entry over its queued one. Rewrites of a chunk
/// take an exclusive `flock` on the ledger's folder, so two processes never lose each
/// other's removals.
struct QueueLedger {
  /// Entries per chunk file: small enough that removing one rewrites little.
  static let chunkSize = 512
  static let folderName = ".queue"

  /// `content/.queue` in the store.
  let folder: URL

  init(contentFolder: URL) {
    folder = contentFolder.appending(path: Self.folderName, directoryHint: .isDirectory)
  }

  /// Records `manifests` (queued contents, or flat files just downloaded), in chunks,
  /// durably: each chunk is fsynced and renamed into place, then the folder is fsynced once.
  /// Without `durably` nothing is fsynced: the caller syncs the file system before it relies
  /// on them (a batch of finished files). Best effort: a failure leaves those contents
  /// without a manifest (a rebuild cannot bring them back; nothing else changes).
  func append(_ manifests: [ContentManifest], durably: Bool = true) {
    guard !manifests.isEmpty else { return }
    if DurableFile.kind(folder.path) == .missing {
      try? FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      if durably { DurableFile.syncFolder(of: folder) }  // the new folder's entry in content/
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    var start = 0
    while start < manifests.count {
      let chunk = Array(manifests[start..<min(start + Self.chunkSize, manifests.count)])
      start += Self.chunkSize
      guard let data = try? encoder.encode(chunk) else { continue }
      let sequences = chunk.map(\.sequence)
      let name =
        "q-\(sequences.min() ?? 0)-\(sequences.max() ?? 0)-\(UInt32.random(in: 0...UInt32.max)).json"
      DurableFile.write(
        data, to: folder.appending(path: name), syncingFolder: false, durably: durably)
    }
    if durably { DurableFile.syncFolder(of: folder.appending(path: "x")) }
  }

  /// Removes the entry of content `id` queued with `sequence`, durably, before a cancel or a
  /// delete is recorded. Only chunks whose range holds `sequence` are read.
  func remove(id: String, sequence: Int64) {
    let lock = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard lock >= 0 else { return }  // no ledger
    defer { close(lock) }
    flock(lock, LOCK_EX)
    defer { flock(lock, LOCK_UN) }
    for name in chunkNames() {
      guard let range = Self.range(of: name), range.contains(sequence) else { continue }
      let target = folder.appending(path: name)
      guard
        case .success(let data) = DurableFile.read(target.path, limit: ContentManifest.maximumSize),
        let entries = try? JSONDecoder().decode([ContentManifest].self, from: data)
      else { continue }
      let kept = entries.filter { $0.id != id }
      guard kept.count != entries.count else { continue }
      if kept.isEmpty {
        DurableFile.remove(target)
      } else if let encoded = try? JSONEncoder().encode(kept) {
        DurableFile.write(encoded, to: target)
      }
    }
  }

  /// Every entry of every chunk, with the chunks that could not be read and why.
  func entries() -> (manifests: [ContentManifest], problems: [(path: String, reason: String)]) {
    var manifests: [ContentManifest] = []
    var problems: [(String, String)] = []
    for name in chunkNames() {
      let path = folder.appending(path: name).path
      switch DurableFile.read(path, limit: ContentManifest.maximumSize) {
      case .failure(let problem):
        problems.append((path, problem.reason))
      case .success(let data):
        guard let decoded = try? JSONDecoder().decode([ContentManifest].self, from: data) else {
          problems.append((path, "it is not a list of manifests (damaged JSON)"))
          continue
        }
        manifests += decoded
      }
    }
    return (manifests, problems)
  }

  private func chunkNames() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasPrefix("q-") && $0.hasSuffix(".json") }.sorted()
  }

  /// The sequences a chunk's name says it holds.
  static func range(of name: String) -> ClosedRange<Int64>? {
    let parts = name.dropFirst(2).split(separator: "-")
    guard parts.count == 3, let first = Int64(parts[0]), let last = Int64(parts[1]),
      first <= last
    else { return nil }
    return first...last
  }
}
