import Foundation

/// A content as programs read it: one object with stable JSON keys, the same in
/// `offline ls --json`, the service's `/api/v1/contents` and its `content` events.
///
/// Keys that have no value are left out (a `total` not known yet, a `waitReason` outside
/// `downloading`, the `contentPath` of a content the service does not serve).
///
/// ```swift
/// let snapshot = try await content.snapshot
/// let json = try JSONEncoder().encode(ContentProjection(snapshot))
/// ```
public struct ContentProjection: Codable, Sendable, Equatable {
  /// The content's id.
  public var id: String
  /// The source URL.
  public var url: String
  /// The title, when one was given.
  public var title: String?
  /// The state's name (``OfflineState``'s raw value: `downloading`, `downloaded`, ...).
  public var state: String
  /// Bytes on disk.
  public var bytes: Int64
  /// The total, when known or estimated.
  public var total: Int64?
  /// Whether ``total`` is an estimate.
  public var totalIsEstimate: Bool
  /// Why a download is not moving (`queued`, `network`, `storage`, `retry`, ...), for a
  /// content in `downloading` only.
  public var waitReason: String?
  /// The last error's sentence, when the last attempt failed.
  public var lastError: String?
  /// The last error's code (``OfflineError/Code``'s name; `http404` for a status).
  public var lastErrorCode: String?
  /// The queue priority.
  public var priority: Int
  /// Where the file or entry playlist is (or will be) on disk.
  public var path: String
  /// `/content/<id>/<file>`: where the local service serves it: a downloaded content; a file
  /// that is downloading or suspended (read through as it lands); an HLS stream that is
  /// downloading or suspended, through its read-through playlist (`index-through.m3u8`:
  /// the service fetches a segment a player asks for ahead of the queue), a DASH
  /// presentation through `index-through.mpd` the same way.
  public var contentPath: String?
  /// What the quick check found wrong with a downloaded content's files, in words.
  public var damage: String?
  /// The calls its state allows, in the words of the command line and the service:
  /// `pause`, `resume`, `cancel`, `delete`, `download`, `forget`.
  public var actions: [String]
  /// For a live recording, what it holds: `recordedSeconds`, `recordedSegments`, `gaps`
  /// (each with `firstSequence`, `lastSequence` and `reason`: `fellOutOfWindow`,
  /// `failedAfterRetries` or `notRunning`), `isRecording`, while it records
  /// `liveEdgeDelay`, and for a part of a split recording `recordingID` and `part`; left out
  /// for any other content.
  public var live: LiveRecordingSummary?
  /// For a downloaded file fetched from several sources, what each served (`url`,
  /// `primary`, `bytes`, `badPieces` when any, `dropped` with the reason when it was,
  /// `pathway` for an HLS stream's content steering pathway),
  /// the primary first; left out for any other content.
  public var sources: [Source]?

  /// One source of a file in ``ContentProjection/sources``.
  public struct Source: Codable, Sendable, Equatable {
    /// The source's URL, its secrets redacted.
    public var url: String
    /// Whether it is the primary URL.
    public var primary: Bool
    /// Body bytes it served.
    public var bytes: Int64
    /// Pieces it served with the wrong SHA-256 (fetched again elsewhere); left out when none.
    public var badPieces: Int?
    /// Why it was dropped, as a sentence; left out when it was used to the end.
    public var dropped: String?
    /// The HLS content steering pathway ID (for example `CDN-A`); left out for a source
    /// that is none.
    public var pathway: String?

    /// The projection of `report`.
    public init(_ report: Transfer.SourceReport) {
      url = report.url.redactedForDisplay
      primary = report.isPrimary
      bytes = report.bytes
      badPieces = report.badPieces > 0 ? report.badPieces : nil
      dropped = report.dropped
      pathway = report.pathway
    }
  }

  /// The projection of `snapshot`.
  public init(_ snapshot: OfflineContent.Snapshot) {
    id = snapshot.id
    url = snapshot.url.absoluteString
    title = snapshot.title
    state = snapshot.state.rawValue
    bytes = snapshot.bytes
    total = snapshot.total
    totalIsEstimate = snapshot.totalIsEstimate
    waitReason = snapshot.state == .downloading ? snapshot.waitReason?.name : nil
    lastError = snapshot.lastError?.description
    lastErrorCode = snapshot.lastError?.kindName
    priority = snapshot.priority
    path = snapshot.fileURL.path
    damage = snapshot.damage?.description
    actions = Self.actions(in: snapshot.state)
    live = snapshot.live
    sources = snapshot.sources.map { $0.map(Source.init) }
    let name = snapshot.fileURL.lastPathComponent
    let onItsWay = snapshot.state == .downloading || snapshot.state == .suspended
    if snapshot.state == .downloaded || onItsWay {
      // On its way, a stream is read through from its playlist or MPD of local names, and
      // a file read through.
      let served =
        switch (onItsWay, name) {
        case (true, "index.m3u8"): HLSGrowingPlaylists.throughIndex
        case (true, "index.mpd"): DASHDownload.throughIndexName
        default: name
        }
      contentPath =
        "/content/\(snapshot.id)/"
        + (served.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? served)
    }
  }

  /// The calls allowed in `state`, by their command-line names; `forget` removes a content
  /// that is not downloaded.
  public static func actions(in state: OfflineState) -> [String] {
    let calls: [(String, OfflineAction?)] = [
      ("pause", .suspend), ("resume", .resume), ("cancel", .cancel), ("delete", .delete),
      ("download", .download), ("forget", nil),
    ]
    return calls.filter { _, action in
      guard let action else { return state == .notDownloaded }
      return (try? OfflineStateMachine.state(after: action, from: state)) != nil
    }.map(\.0)
  }

  /// The projections of `snapshots` as one JSON array, keys sorted.
  public static func json(_ snapshots: [OfflineContent.Snapshot]) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(snapshots.map(ContentProjection.init))) ?? Data("[]".utf8)
  }
}
