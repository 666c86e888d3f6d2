import Foundation
import OfflineExport
import TestTiming
import Testing

/// What an export tells the application while it runs: progress, and messages for its log.
@Suite(.timed) struct ExportReportingTests {
  @Test func progressGrowsThroughWritingThenVerifyingToTheEnd() async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 6, in: folder.url)
    let reports = Locked([ExportProgress]())
    let report = try await StreamExport(
      source: fixture.folder, destination: folder.url.appendingPathComponent("out.mp4")
    ).run { progress in reports.set(reports.value + [progress]) }

    let all = reports.value
    let writing = all.filter { $0.phase == .writing }
    let verifying = all.filter { $0.phase == .verifying }
    #expect(all.map(\.phase) == writing.map(\.phase) + verifying.map(\.phase))
    for phase in [writing, verifying] {
      #expect(zip(phase, phase.dropFirst()).allSatisfy { $0.fraction < $1.fraction })
      #expect(phase.first?.fraction == 0)
      #expect(phase.last?.fraction == 1)
    }
    #expect(writing.count > 10)
    #expect(verifying.last?.packets == report.verification.packetsCompared)
  }

  @Test func stitchedDiscontinuityAndLibavWarningsGoToTheLogSink() async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.discontinuous, seconds: 4, in: folder.url)
    let messages = Locked([ExportLogMessage]())
    _ = try await StreamExport(
      source: fixture.folder, destination: folder.url.appendingPathComponent("out.mkv"),
      log: { message in messages.set(messages.value + [message]) }
    ).run()

    let texts = messages.value.map(\.text)
    #expect(texts.contains { $0.hasPrefix("The timestamps jump") })
    // The MPEG-TS demuxer warns where the second encoding's timestamps start again; the
    // warning comes as one line (libav logs it in two pieces).
    #expect(texts.contains { $0.hasPrefix("libav: [mpegts @") && $0.hasSuffix(").") })
    #expect(!texts.contains { $0.contains("\n") })
  }
}
