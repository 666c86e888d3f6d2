import Foundation
import OfflineLocks
import OfflineStore

/// What a content's folder says about the content, so that a new index can be rebuilt from
/// the folders when `index.sqlite` is lost: `content/<id>/.manifest.json`, or for a content
/// that is only queued, one entry of a ``QueueLedger`` chunk.
///
/// The index is the truth while it is healthy; a manifest is only read to rebuild. It never
/// claims more than is true: `downloaded` is written only after the files are durable, and a
/// manifest that could resurrect a cancel or a delete is removed before the index records it.
/// It holds no secret (no request headers or credentials exist in the options today; any
/// that are added must stay out of it). See `docs/Manifest.md`.
///
/// Its shareable part (``sharedKeys``) has the keys and values of ``ContentProjection``, the
/// one machine view of a content that `ls --json` and the service print.
struct ContentManifest: Codable, Sendable, Equatable {
  /// The name of the manifest in a content's folder. ``reservedName(_:)`` keeps content files
  /// from taking it.
  static let fileName = ".manifest.json"
  /// The format written. Format 1 (before issue 37) spelt ``lastErrorCode`` `lastErrorKind`;
  /// both are read, other formats refused.
  static let currentFormat = 2
  /// The formats read.
  static let readableFormats: ClosedRange<Int> = 1...2
  /// The keys shared with ``ContentProjection``: the same names, the same values.
  static let sharedKeys: Set<String> = [
    "id", "url", "title", "state", "bytes", "total", "totalIsEstimate", "lastError",
    "lastErrorCode", "priority",
  ]
  /// The largest manifest read (a stream of many thousand segments fits).
  static let maximumSize = 16 << 20

  /// One file of a downloaded content, relative to its folder.
  struct File: Codable, Sendable, Equatable {
    /// The path inside the content's folder (`movie.mp4`, `video/s00001.ts`).
    var path: String
    /// Its length in bytes.
    var size: Int64
    /// Its SHA-256 (lowercase hex), when the download computed one.
    var sha256: String?
    /// The SHA-256 of each 4 MiB chunk, for the content's own file (`verify`, `repair`).
    var chunks: [String]? = nil
    /// Its ``PieceRecord/Kind`` raw value (`file`, `segment`, `init`, `key`, `playlist`).
    var kind: String? = nil
  }

  /// A transfer journal entry of a suspended content, so its part files can resume after a
  /// rebuild exactly as the lost journal would have let them.
  struct Journal: Codable, Sendable, Equatable {
    /// The destination, relative to the content's folder.
    var path: String
    var url: String
    var phase: String
    var durableOffset: Int64
    var bootID: String?
    var totalLength: Int64?
    var etag: String?
    var lastModified: String?
    var expectedSHA256: String?
    var sha256: String?
    /// The content coding of the part's bytes (nil: identity), so a resume in another
    /// coding is still never appended to them.
    var contentEncoding: String?
    /// The identity of a complete piece (size, modification time, inode, device).
    var fileIdentity: [Int64]?
    /// The pack a piece's bytes are in (relative to the content's folder) and where they
    /// start there (``TransferRecord/Pack``); nil for a piece with a file of its own.
    var packPath: String?
    var packOffset: Int64?
  }

  var format = Self.currentFormat
  var id: String
  var url: String
  var title: String?
  var metadata: String?
  var fileName: String
  /// An ``OfflineState`` raw value: `downloading`, `suspended` or `downloaded`.
  var state: String
  var priority: Int
  var sequence: Int64
  var expectedSHA256: String?
  /// The download configuration as the index stores it (``DownloadConfiguration/storedOptions``).
  var options: String?
  var bytes: Int64
  var total: Int64?
  var totalIsEstimate: Bool
  var lastError: String?
  /// The last error's code, as ``ContentProjection/lastErrorCode`` gives it.
  var lastErrorCode: String?
  /// Format 1's name of ``lastErrorCode``: read, never written.
  var lastErrorKind: String? = nil
  /// Milliseconds since 1970.
  var createdAt: Int64
  /// For `downloaded`: every file of the content with its size.
  var files: [File] = []
  /// For `suspended`: the journal entries of its part files.
  var journal: [Journal] = []
  /// True when the content's one file lives in the store's shared `files/` folder
  /// (``ContentRecord/flatFile``); absent for a content with a folder of its own, as every
  /// manifest written before that folder existed.
  var flatFile: Bool? = nil
  /// The file's piece checks, when the index keeps some (a Metalink's); absent otherwise,
  /// as in every manifest written before they were kept.
  var pieceChecks: PieceChecksEntry? = nil
  /// What each source served, when the index keeps it (a file fetched from several);
  /// absent otherwise.
  var sources: [SourceEntry]? = nil

  /// The manifest of `record` in `state`.
  init(record: ContentRecord, state: OfflineState) {
    id = record.id
    url = record.url
    title = record.title
    metadata = record.metadata
    fileName = record.fileName
    self.state = state.rawValue
    priority = record.priority
    sequence = record.sequence
    expectedSHA256 = record.expectedSHA256
    options = Self.shareableOptions(record.options?.text)
    bytes = record.bytes
    total = record.total
    totalIsEstimate = record.totalIsEstimate
    lastError = record.lastError
    // As a snapshot rebuilds the error: a sentence without a code is `downloadFailed`.
    lastErrorCode = record.lastErrorKind ?? (record.lastError == nil ? nil : "downloadFailed")
    createdAt = Int64((record.createdAt.timeIntervalSince1970 * 1000).rounded())
    flatFile = record.flatFile ? true : nil
  }

  /// The state it records.
  var offlineState: OfflineState? { OfflineState(rawValue: state) }

  /// The record to put back in the index, in `state`.
  func record(state: OfflineState) -> ContentRecord {
    var record = ContentRecord(
      id: id, url: url, title: title, metadata: metadata, fileName: fileName,
      state: state.stored, priority: priority, sequence: sequence, bytes: bytes, total: total,
      totalIsEstimate: totalIsEstimate, expectedSHA256: expectedSHA256,
      options: options.flatMap(StoredJSON.init(text:)), lastError: lastError,
      lastErrorKind: lastErrorCode ?? lastErrorKind,
      waitReason: state == .downloading ? .queued : nil,
      flatFile: flatFile == true,
      createdAt: Date(timeIntervalSince1970: Double(createdAt) / 1000))
    // Kept in the index before the record is (``IndexRebuild``), so no runner starts it
    // without them.
    record.hasPieceChecks = pieceChecks?.stored != nil
    return record
  }

  /// The keys of the stored download configuration a manifest may hold: nothing else the
  /// index stores there (request headers, cookies, credentials, should they be added) ever
  /// leaves the index. `hls` is the name earlier versions gave `stream`.
  static let shareableOptionKeys: Set<String> = ["stream", "hls", "connections"]

  /// `options` (a JSON object) with only ``shareableOptionKeys``; nil when it is not one.
  /// Remembered by ``lastShareableOptions``: the queue's contents mostly share one options
  /// text, and a JSON round trip per manifest was a twentieth of the runner's CPU with a
  /// thousand small files.
  static func shareableOptions(_ options: String?) -> String? {
    guard let options else { return nil }
    if let last = lastShareableOptions.withLock({ $0 }), last.options == options {
      return last.shared
    }
    let shared = filteredOptions(options)
    lastShareableOptions.withLock { $0 = (options, shared) }
    return shared
  }

  /// The last options text ``shareableOptions(_:)`` filtered, with what it gave.
  private static let lastShareableOptions = Locked<(options: String, shared: String?)?>(nil)

  private static func filteredOptions(_ options: String) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(options.utf8)) as? [String: Any]
    else { return nil }
    let kept = object.filter { shareableOptionKeys.contains($0.key) }
    guard let data = try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys])
    else { return nil }
    return String(data: data, encoding: .utf8)
  }

  /// Whether a content file named `name` would collide with the manifest or its temporary.
  static func reservedName(_ name: String) -> Bool {
    name.hasPrefix(fileName)
  }

  /// `name`, changed when it would collide with the manifest.
  static func contentFileName(_ name: String) -> String {
    reservedName(name) ? "_" + name : name
  }
}

extension ContentManifest {
  /// Why a manifest cannot be used; shown in the rebuild's report.
  struct Problem: Error, Sendable, Equatable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// Checks everything a hostile or damaged manifest could get wrong, before anything in it
  /// is used: its id must be the folder's (when it has one) and a valid id, the URL http(s),
  /// every path relative and inside the folder.
  func validated(folderName: String?) throws(Problem) -> ContentManifest {
    guard Self.readableFormats.contains(format) else {
      throw Problem("format \(format) is not known")
    }
    guard ContentFiles.isValidID(id) else {
      throw Problem("the id '\(Self.shown(id))' cannot name a content folder")
    }
    if let folderName, folderName != id {
      throw Problem("the id '\(Self.shown(id))' is not its folder's name")
    }
    guard let parsed = URL(string: url), parsed.isHTTPWithHost else {
      throw Problem("the source '\(Self.shown(url))' is not an http or https URL")
    }
    guard Self.isSafeComponent(fileName), !Self.reservedName(fileName) else {
      throw Problem("the file name '\(Self.shown(fileName))' is not one name inside the folder")
    }
    guard let state = offlineState, [.downloading, .suspended, .downloaded].contains(state) else {
      throw Problem("the state '\(Self.shown(state))' cannot be restored")
    }
    guard bytes >= 0, (total ?? 0) >= 0 else { throw Problem("a negative size") }
    for file in files {
      guard Self.isSafeRelativePath(file.path), file.size >= 0 else {
        throw Problem("the file '\(Self.shown(file.path))' is outside the content's folder")
      }
    }
    for entry in journal {
      guard Self.isSafeRelativePath(entry.path), entry.durableOffset >= 0,
        (entry.totalLength ?? 0) >= 0, TransferRecord.Phase(rawValue: entry.phase) != nil,
        entry.packPath.map(Self.isSafeRelativePath) ?? true, (entry.packOffset ?? 0) >= 0
      else { throw Problem("the journal entry '\(Self.shown(entry.path))' is not usable") }
      guard let entryURL = URL(string: entry.url), URL.isHTTPScheme(entryURL.scheme ?? "")
      else { throw Problem("the journal entry '\(Self.shown(entry.path))' has no http URL") }
    }
    if flatFile == true {
      // One file in the shared folder: it may name nothing else there.
      guard ContentFiles.canBeFlat(fileName), files.allSatisfy({ $0.path == fileName }),
        journal.allSatisfy({ $0.path == fileName })
      else { throw Problem("a flat file's manifest names other files") }
    }
    if let pieceChecks, pieceChecks.stored == nil {
      throw Problem("its piece checks do not cover its file")
    }
    if state == .downloaded && files.isEmpty {
      throw Problem("it says downloaded but lists no file")
    }
    return self
  }

  /// One path component a folder can hold: not empty, `.` or `..`, no `/`, no control
  /// characters.
  static func isSafeComponent(_ name: String) -> Bool {
    !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255
      && !name.unicodeScalars.contains { $0 == "/" || $0.value < 0x20 || $0.value == 0x7F }
  }

  /// A relative path of safe components (never absolute, never climbing).
  static func isSafeRelativePath(_ path: String) -> Bool {
    !path.hasPrefix("/") && path.utf8.count <= 1024
      && path.split(separator: "/", omittingEmptySubsequences: false)
        .allSatisfy { isSafeComponent(String($0)) }
  }

  /// Text from a manifest as it may appear in a message: control characters escaped, cut short.
  static func shown(_ text: String) -> String {
    let escaped = text.unicodeScalars.map { scalar -> String in
      scalar.value < 0x20 || scalar.value == 0x7F
        ? String(format: "\\x%02x", scalar.value) : String(scalar)
    }.joined()
    return escaped.count > 80 ? String(escaped.prefix(77)) + "..." : escaped
  }
}
