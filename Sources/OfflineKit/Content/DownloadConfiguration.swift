import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore

/// How one content is downloaded.
public struct DownloadConfiguration: Sendable, Equatable {
  /// The SHA-256 the file must have, as 64 lowercase hex digits; nil to check only the
  /// length. Set by ``init(expectedSHA256:priority:stream:connections:)``, which refuses
  /// anything else.
  public private(set) var expectedSHA256: String?
  /// Higher runs first; equal priorities run in the order they were queued.
  public var priority: Int
  /// For an HLS or DASH stream: which variant and renditions, how many pieces at once, and
  /// how each piece is retried.
  public var stream: StreamConfiguration
  /// Connections for one file (see ``Transfer/Connections``).
  public var connections: Transfer.Connections

  /// Creates a configuration that checks the file's length.
  public init(
    priority: Int = 0, stream: StreamConfiguration = StreamConfiguration(),
    connections: Transfer.Connections = .adaptive
  ) {
    self.priority = priority
    self.stream = stream
    self.connections = connections.normalized
  }

  /// Creates a configuration that also checks the file's SHA-256 (nil: the length only).
  ///
  /// - Throws: ``OfflineError`` (`invalidChecksum`) when `expectedSHA256` is not 64
  ///   hexadecimal digits: a checksum that can never match is refused now, not after the
  ///   download.
  public init(
    expectedSHA256: String?, priority: Int = 0, stream: StreamConfiguration = StreamConfiguration(),
    connections: Transfer.Connections = .adaptive
  ) throws(OfflineError) {
    self.init(priority: priority, stream: stream, connections: connections)
    self.expectedSHA256 = try SHA256.checkedHex(expectedSHA256)
  }

  /// What the index stores besides the checksum and the priority (the `options` column).
  struct Stored: Codable, Equatable, Sendable {
    /// A stream's options (HLS or DASH).
    var stream: StreamConfiguration
    var connections: Transfer.Connections?

    init(stream: StreamConfiguration, connections: Transfer.Connections?) {
      self.stream = stream
      self.connections = connections
    }

    private enum CodingKeys: String, CodingKey {
      case stream, connections
      /// The stream's options as earlier versions named them (for HLS and DASH alike);
      /// read, never written.
      case hls
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      stream =
        try container.decodeIfPresent(StreamConfiguration.self, forKey: .stream)
        ?? container.decode(StreamConfiguration.self, forKey: .hls)
      connections = try container.decodeIfPresent(Transfer.Connections.self, forKey: .connections)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(stream, forKey: .stream)
      try container.encodeIfPresent(connections, forKey: .connections)
    }
  }

  /// The options as the index stores them.
  var storedOptions: StoredJSON? {
    try? StoredJSON(encoding: Stored(stream: stream, connections: connections))
  }

  /// The options stored in `record`: the defaults when it has none.
  ///
  /// - Throws: ``OfflineError`` (`index`) when they are not options this version knows;
  ///   never a silent default.
  ///
  /// The last text decoded is remembered: a queue's contents mostly share one, and decoding
  /// it for every start was a fortieth of the runner's CPU with a thousand small files.
  static func stored(in record: ContentRecord) throws(OfflineError) -> Stored {
    guard let options = record.options else {
      return Stored(stream: StreamConfiguration(), connections: nil)
    }
    if let last = lastDecoded.withLock({ $0 }), last.text == options.text { return last.stored }
    do {
      let stored = try options.decoded(as: Stored.self)
      lastDecoded.withLock { $0 = (options.text, stored) }
      return stored
    } catch {
      throw OfflineError(.index(error), contentID: record.id)
    }
  }

  /// The options text ``stored(in:)`` decoded last, with what it gave.
  private static let lastDecoded = Locked<(text: String, stored: Stored)?>(nil)
}
