import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineCLI

/// `offline export` runs the `offline-export` executable (FFmpeg's libraries load only there):
/// found beside `offline`, else on `PATH`, and a clear error when it is neither.
@Suite(.timed)
struct ExporterLocationTests {
  @Test func offlineWithoutItsExporterBesideItOrOnPathSaysSoAndWritesNothing() async throws {
    let work = try TemporaryDirectory(prefix: "offlinekit-no-exporter")
    let bin = work.url.appending(path: "bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let alone = bin.appending(path: "offline").path
    // A hard link: /proc/self/exe then names this folder (a symbolic link would resolve to the
    // build folder). A copy only across file systems: writing an executable while other tests
    // start processes can leave it busy ("Text file busy") when it is started.
    if link(OfflineBinary.path, alone) != 0 {
      try FileManager.default.copyItem(atPath: OfflineBinary.path, toPath: alone)
    }
    let output = work.url.appending(path: "film.mp4").path

    let run = try await ProcessRunner.run(
      alone,
      ["--store", work.url.appending(path: "store").path, "export", work.path, "-o", output],
      timeout: 60, environment: ["PATH": "/usr/bin:/bin", "HOME": work.path])

    #expect(run.status == 1)
    #expect(
      run.stderrText.hasPrefix(
        "Error: offline-export is not installed beside offline (in \(bin.path)) or on PATH"),
      "\(run.stderrText)")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func theExporterOnPathIsFoundWhenNoneIsBesideOffline() throws {
    let folder = URL(fileURLWithPath: OfflineBinary.path).deletingLastPathComponent().path
    let found = try ExporterLocation.find(
      environment: ["PATH": "/nonexistent:\(folder)"], beside: nil)
    #expect(found == folder + "/offline-export")
    #expect(throws: ExporterError.notInstalled(folder: nil)) {
      try ExporterLocation.find(environment: ["PATH": "/nonexistent"], beside: nil)
    }
  }
}
