import ExportChannel
import Foundation
import OfflineKit

/// `offline export`: one MP4 or Matroska file out of a downloaded stream (a content of the
/// store, or a folder `get -o DIR` wrote), remuxed without re-encoding and verified against
/// the offline copy before it is put in place.
struct ExportCommand: Command {
  static let source: Argument<String> = .required(
    "source", noun: "id or folder",
    help: "A downloaded stream's id in the store ('offline ls' lists them), or a folder that"
      + " 'offline get URL -o DIR' wrote (it holds index.m3u8 or index.mpd). A path (with a"
      + " /) or the name of a folder that exists here is a folder; anything else an id.",
    // Kept as typed (`.file` would make it a path): whether it has a `/` tells the two apart.
    parser: .string)
  static let output: Option<String?> = .value(
    "-o", "--output", valueName: "file",
    help: "The file to write: .mp4 (the moov box first, so players start at once) or .mkv."
      + " Its folder must exist.",
    parser: .file
  ).required()
  static let force: Option<Bool> = .flag(
    "--force",
    help: "Replace a file already at the output path (without it, nothing is"
      + " written).")
  static let format: Option<ExportRequest.Format?> = .value(
    "--format", valueName: "format",
    help: "mp4 or mkv, whatever the output's extension (default: from the extension).",
    parser: .choice(ExportRequest.Format.self))
  static let subsSidecar: Option<Bool> = .flag(
    "--subs-sidecar",
    help: "Also write the subtitle track as NAME.vtt beside the file (refused like the file"
      + " when it exists, unless --force).")
  static let quiet: Option<Bool> = .flag("-q", "--quiet", help: "Print nothing but errors.")
  static let json: Option<Bool> = .flag(
    "--json",
    help: "Print one JSON object on standard output: output, format, bytes, duration, tracks"
      + " (kind, codec, language, default, packets) and verified.")

  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Write a downloaded stream as one MP4 or MKV file: remuxed, never re-encoded,"
      + " and checked against the offline copy.",
    discussion: """
      Every video and audio track of the offline copy goes into the file, on one continuous
      timeline, and one subtitle track made from its WebVTT renditions (mov_text in MP4,
      WebVTT in MKV). The file is written under a hidden temporary name beside the output, read
      back and compared packet by packet with the offline copy, and only then renamed into
      place: a failed, stopped or killed export leaves nothing at the output path. The
      offline copy is not changed.

      EXIT CODES: 0 exported and verified, 1 failed (a content that is not downloaded or
      not a stream, an output that exists without --force, a missing output folder, a
      failed check), 64 usage error, 130 stopped by SIGINT, 143 stopped by SIGTERM.
      """,
    arguments: [source], options: [output, force, format, subsSidecar, quiet, json],
    command: Self.self)

  let source: String
  let output: String
  let overwrite: Bool
  let format: ExportRequest.Format?
  let subtitleSidecar: Bool
  let quiet: Bool
  let json: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    source = arguments[Self.source]
    // Required, so the parser has refused a command line without it; an absolute path:
    // `.file` values are made so against the working folder.
    output = arguments[Self.output] ?? ""
    overwrite = arguments[Self.force]
    format = arguments[Self.format]
    subtitleSidecar = arguments[Self.subsSidecar]
    quiet = arguments[Self.quiet]
    json = arguments[Self.json]
    guard format != nil || ExportRequest.Format(path: output) != nil else {
      throw UsageError(
        "Cannot tell the format of '\(output)' from its extension: use .mp4 or .mkv, or"
          + " --format.")
    }
  }

  func run(_ context: CommandContext) async -> Int32 {
    let host = context.host
    let folder: URL
    if let path = Self.folderPath(source, host: host) {
      folder = URL(fileURLWithPath: path)
    } else {
      guard let found = await Self.streamFolder(ofContent: source, context: context) else {
        return ExitCode.failure
      }
      folder = found
    }
    let job = ExportJob(
      source: folder, destination: URL(fileURLWithPath: output),
      format: format, overwrite: overwrite, quiet: quiet, json: json,
      subtitleSidecar: subtitleSidecar)
    return await job.run(console: context.console, environment: host.environment).exitCode
  }

  /// The absolute path `source` names when it is a path rather than an id: it has a `/`, or
  /// names a folder (or a `.m3u8` or `.mpd` file) in the working folder.
  static func folderPath(_ source: String, host: CommandHost) -> String? {
    let path = host.absolutePath(source)
    if source.contains("/") { return path }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
    let isPlaylist = ["m3u8", "mpd"].contains((source as NSString).pathExtension.lowercased())
    return isFolder.boolValue || isPlaylist ? path : nil
  }

  /// The offline folder of content `id`: its playlist's folder, once the content is
  /// downloaded, a stream, and whole by the quick check. Nil after printing why not. The
  /// store is closed before the export starts, so a long export holds nothing open.
  static func streamFolder(ofContent id: String, context: CommandContext) async -> URL? {
    let console = context.console
    let manager: OfflineManager
    do throws(OfflineError) {
      manager = try ManagerAccess.open(context)
    } catch {
      _ = ManagerAccess.fail(error, console)
      return nil
    }
    let playlist: URL?
    do throws(OfflineError) {
      playlist = try await exportablePlaylist(of: manager.content(id: id), console: console)
    } catch {
      _ = ManagerAccess.fail(error, console)
      playlist = nil
    }
    await manager.close()
    return playlist?.deletingLastPathComponent()
  }

  /// The playlist of `content` when it can be exported; nil after printing why not.
  private static func exportablePlaylist(of content: OfflineContent, console: Console)
    async throws(OfflineError) -> URL?
  {
    let snapshot = try await content.snapshot
    guard snapshot.state == .downloaded else {
      console.err(
        "Error: Content \(content.id) is \(snapshot.state.phrase): only a downloaded stream can"
          + " be exported.")
      return nil
    }
    guard ["index.m3u8", "index.mpd"].contains(snapshot.fileURL.lastPathComponent) else {
      console.err(
        "Error: Content \(content.id) is a file, not a stream: nothing to export ('offline"
          + " path \(content.id)' prints where it is).")
      return nil
    }
    return try await content.playbackURL()
  }
}
