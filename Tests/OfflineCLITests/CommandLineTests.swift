import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline` as a user at a terminal meets it: help, usage errors, exit codes, output.
@Suite(.ownThreads, .timed) struct CommandLineTests {
  @Test func helpIsThereOnEveryLevel() async throws {
    for arguments in [["--help"], ["-h"], ["get", "--help"], ["help", "get"], ["help"]] {
      let result = try await InProcessOffline.run(arguments)
      #expect(result.status == 0, "\(arguments)")
      #expect(result.stdoutText.contains("OVERVIEW:"), "\(arguments)")
      #expect(result.stdoutText.contains("USAGE:"), "\(arguments)")
    }
    let get = try await InProcessOffline.run(["get", "--help"]).stdoutText
    for option in ["--output", "--sha256", "--quiet", "--json", "<url>"] {
      #expect(get.contains(option))
    }
  }

  @Test func usageMistakesExit64WithAnErrorAndTheUsage() async throws {
    let cases: [[String]] = [
      [], ["frobnicate"], ["--bogus"], ["get"], ["get", "--nope", "http://x/"],
      ["get", "ftp://example.test/file"], ["get", "http://x/", "--sha256", "abc"],
      ["get", "http://x/", "-o"], ["--store"],
    ]
    for arguments in cases {
      let result = try await InProcessOffline.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderrText.hasPrefix("Error: "), "\(arguments)")
      #expect(result.stderrText.contains("Usage: "), "\(arguments)")
    }
  }

  // Pins issue 11, item 13: `--connections 1000` opened 1,001 connections to one host.
  @Test func moreConnectionsThanOneHostGetsIsAUsageError() async throws {
    let result = try await InProcessOffline.run([
      "get", "http://127.0.0.1:9/x", "--connections", "1000",
    ])
    #expect(result.status == 64)
    #expect(result.stderrText.contains("--connections takes at most 32"), "\(result.stderrText)")
    await #expect(try InProcessOffline.run(["get", "--help"]).stdoutText.contains("at most 32"))
  }

  @Test func versionIsPrinted() async throws {
    let result = try await InProcessOffline.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdoutText.hasPrefix("offline "))
  }
}
