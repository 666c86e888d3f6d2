import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Fragmented MP4 under AES-128 (whole segments, CBC), with the init section in the clear
/// (its `EXT-X-MAP` before the `EXT-X-KEY`) or encrypted with the segments (after it): the
/// offline copy decodes like the origin (RFC 8216 §4.3.2.4: a key applies to the maps that
/// follow it).
///
/// Pins a wrong result found in session 38: the offline playlist always wrote `EXT-X-KEY`
/// before `EXT-X-MAP`, so a clear init section was read as encrypted and ffmpeg failed on
/// the first segment ("Error when loading first segment") of a copy called downloaded.
@Suite(.enabled(if: FFmpeg.isAvailable), .timed)
struct HLSEncryptedFragmentTests {
  static let key = Data((0..<16).map { UInt8($0 * 17) })
  static let explicitIV = Data((0..<16).map { UInt8(0xA0 + $0) })

  /// Where the stream's init section stands against its key.
  enum InitSection: String, CaseIterable, Sendable {
    /// `EXT-X-MAP` first: the init section is in the clear, the segments use the implicit IV.
    case clear
    /// `EXT-X-KEY` with an explicit IV first: the init section is encrypted too.
    case encrypted
  }

  @Test(arguments: InitSection.allCases)
  func anEncryptedFragmentedStreamPlaysOffline(initSection: InitSection) async throws {
    let root = try TemporaryDirectory()
    let files = try await Self.make(initSection, in: root.url)
    let nginx = try NginxServer(root: files.folder)
    try nginx.start()
    defer { nginx.stop() }
    let origin = try await FFmpeg.decode(
      files.folder.appending(path: "index.m3u8").path, allowingAllExtensions: true)
    #expect(origin.errors.isEmpty, "the fixture itself: \(origin.errors)")

    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let download = HLSDownload(
      url: nginx.url("/index.m3u8"), folder: store.url.appending(path: "content"),
      configuration: StreamConfiguration(), journal: index.transfers, transport: CurlTransport())
    let outcome = try await download.run()
    nginx.stop(graceful: false)

    let text = try String(contentsOf: outcome.index, encoding: .utf8)
    let tags = text.split(separator: "\n").filter {
      $0.hasPrefix("#EXT-X-KEY") || $0.hasPrefix("#EXT-X-MAP")
    }.map { $0.hasPrefix("#EXT-X-KEY") ? "KEY" : "MAP" }
    #expect(tags == (initSection == .clear ? ["MAP", "KEY"] : ["KEY", "MAP"]), "\(text)")
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - origin.duration) < 0.1, "\(decoded.duration) s")
    #expect(abs(decoded.duration - files.duration) < 0.6, "\(decoded.duration) s")
  }

  /// The ``HLSFixture/fmp4`` stream with every segment (and, for `encrypted`, its init
  /// section) encrypted under one key by openssl, and its playlist written again.
  static func make(_ initSection: InitSection, in folder: URL) async throws -> (
    folder: URL, duration: Double
  ) {
    let plain = try await HLSFixture.fmp4.make(in: folder.appending(path: "plain"))
    let stream = folder.appending(path: "stream")
    try FileManager.default.createDirectory(at: stream, withIntermediateDirectories: true)
    try key.write(to: stream.appending(path: "key.bin"))
    let source = try String(contentsOf: plain.entryFile, encoding: .utf8)
    guard case .media(let media) = try PlaylistParser.parse(source) else {
      throw TestSupportError.unexpectedOutput(command: "HLSFixture.fmp4", output: source)
    }
    var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(media.targetDuration)"]
    lines.append("#EXT-X-PLAYLIST-TYPE:VOD")
    let initURI = try #require(media.segments.first?.map?.uri)
    switch initSection {
    case .clear:
      try FileManager.default.copyItem(
        at: plain.folder.appending(path: initURI), to: stream.appending(path: initURI))
      lines += ["#EXT-X-MAP:URI=\"\(initURI)\"", "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\""]
    case .encrypted:
      try await encrypt(
        plain.folder.appending(path: initURI), to: stream.appending(path: initURI),
        iv: explicitIV)
      lines += [
        "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\",IV=0x" + hex(explicitIV),
        "#EXT-X-MAP:URI=\"\(initURI)\"",
      ]
    }
    for (sequence, segment) in media.segments.enumerated() {
      // Without an IV attribute the IV is the media sequence number (RFC 8216 §5.2).
      var implicit = Data(count: 16)
      implicit[15] = UInt8(sequence)
      try await encrypt(
        plain.folder.appending(path: segment.uri), to: stream.appending(path: segment.uri),
        iv: initSection == .clear ? implicit : explicitIV)
      lines += ["#EXTINF:\(segment.duration),", segment.uri]
    }
    lines.append("#EXT-X-ENDLIST")
    try (lines.joined(separator: "\n") + "\n").write(
      to: stream.appending(path: "index.m3u8"), atomically: true, encoding: .utf8)
    return (stream, plain.duration)
  }

  static func encrypt(_ input: URL, to output: URL, iv: Data) async throws {
    try await ProcessRunner.checked(
      "/usr/bin/openssl",
      [
        "enc", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv), "-in", input.path,
        "-out", output.path,
      ])
  }

  static func hex(_ data: Data) -> String {
    data.map { String(format: "%02x", $0) }.joined()
  }
}
