import Foundation

extension DASHLiveState {
  /// `live-dash-summary.json` beside `live-dash.json`: the state's ``Summary`` alone, so
  /// what `ls`, `info` and a snapshot read of a live DASH recording costs the same whatever
  /// its length (`live-dash.json` grows with every segment).
  ///
  /// Both files carry the same `checkpoint`, a number drawn afresh at every write: the state
  /// is written first with it as its first key, then the summary. A reader takes the summary
  /// only when its checkpoint is the one the first bytes of `live-dash.json` hold; a kill
  /// between the two writes (or a state written before the summary existed) leaves them
  /// different, and the summary is then read from `live-dash.json` itself.
  struct SummaryFile: Sendable, Equatable, Codable {
    /// The file's name in the content's folder.
    static let fileName = "live-dash-summary.json"
    /// How many leading bytes of `live-dash.json` hold its checkpoint.
    static let headBytes = 64

    /// The checkpoint of the state this summary was written with.
    var checkpoint: UInt64
    /// The summary of that state.
    var summary: Summary
  }

  /// The state with its checkpoint as its first key (``SummaryFile``), and the generation
  /// of the log its segments are replayed from (``DASHLiveStateWriter``).
  private struct Checkpointed: Encodable {
    enum CodingKeys: String, CodingKey { case checkpoint, logGeneration }
    var checkpoint: UInt64
    var logGeneration: UInt64
    var state: DASHLiveState

    func encode(to encoder: any Encoder) throws {
      try state.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(checkpoint, forKey: .checkpoint)
      try container.encode(logGeneration, forKey: .logGeneration)
    }
  }

  /// Writes the whole state atomically into `folder`, then its summary (``SummaryFile``),
  /// both durably, under a new log generation, then removes `live-dash.log`, whose lines
  /// it now holds (a log left by a kill before the removal is of an older generation, and
  /// is not replayed). `summary` false leaves the summary out: what a kill between the two
  /// writes leaves, for the tests.
  func write(in folder: URL, summary: Bool = true) throws(Transfer.Error) {
    try writeHead(in: folder, logGeneration: .random(in: 1...UInt64(Int64.max)), summary: summary)
    Self.log.remove(in: folder)
  }

  /// Writes the state atomically into `folder` as it is (``DASHLiveStateWriter`` leaves the
  /// logged segments out of it), naming `logGeneration` as the generation of the log lines
  /// replayed over it, then its summary unless `summary` is false; both durably.
  func writeHead(in folder: URL, logGeneration: UInt64, summary: Bool = true)
    throws(Transfer.Error)
  {
    let checkpoint = UInt64.random(in: 1...UInt64(Int64.max))
    try LiveStateFile.write(
      Checkpointed(checkpoint: checkpoint, logGeneration: logGeneration, state: self),
      named: Self.fileName, in: folder, url: manifestURL)
    guard summary else { return }
    try LiveStateFile.write(
      SummaryFile(checkpoint: checkpoint, summary: Summary(self)), named: SummaryFile.fileName,
      in: folder, url: manifestURL)
  }
}

extension DASHLiveState.Summary {
  /// The summary of the state in `folder`, or nil when there is none or it cannot be read.
  static func read(in folder: URL) -> Self? { reading(in: folder).summary }

  /// The summary of the state in `folder` and the bytes read to find it: the head of
  /// `live-dash.json` and `live-dash-summary.json` when their checkpoints agree, else the
  /// head and the whole of `live-dash.json` (its journals decoded, never its segments).
  static func reading(in folder: URL) -> (summary: Self?, bytesRead: Int) {
    let name = DASHLiveState.fileName
    guard
      let head = LiveStateFile.head(
        named: name, in: folder, count: DASHLiveState.SummaryFile.headBytes)
    else { return (nil, 0) }
    if let checkpoint = checkpoint(in: head),
      let data = LiveStateFile.contents(named: DASHLiveState.SummaryFile.fileName, in: folder),
      let file = try? JSONDecoder().decode(DASHLiveState.SummaryFile.self, from: data),
      file.checkpoint == checkpoint
    {
      return (file.summary, head.count + data.count)
    }
    guard let data = LiveStateFile.contents(named: name, in: folder) else {
      return (nil, head.count)
    }
    return (try? JSONDecoder().decode(Self.self, from: data), head.count + data.count)
  }

  /// The checkpoint `head`, the first bytes of `live-dash.json`, begins with; nil for a
  /// state written without one.
  private static func checkpoint(in head: Data) -> UInt64? {
    let key = Data(#"{"checkpoint":"#.utf8)
    guard head.starts(with: key) else { return nil }
    let digits = head.dropFirst(key.count).prefix {
      $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
    }
    guard digits.count < head.count - key.count else { return nil }  // cut short
    return UInt64(String(decoding: digits, as: UTF8.self))
  }
}
