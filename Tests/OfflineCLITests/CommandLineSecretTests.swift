import Foundation
import TestSupport
import TestTiming
import Testing

/// No secret given on the command line shows in `ps` (issue 36, item 11): every local user
/// reads `/proc/<pid>/cmdline`, which held `-u user:password`, a proxy's password, an
/// `Authorization` header and `serve --token` for the whole run. What `ps` shows of a
/// running process is in `ProcessArgumentTests`; the refusals here run in-process.
@Suite(.ownThreads, .timed) struct CommandLineSecretTests {
  /// A token file that cannot be read, or holds no token, and `--token` with
  /// `--token-file`, are usage errors (64) that never repeat the token.
  @Test func aBadTokenFileIsAUsageError() async throws {
    let folder = try TemporaryDirectory()
    try Data("short\n".utf8).write(to: folder.file("short"))
    let store = folder.url.appending(path: "store").path
    for extra in [
      ["--token-file", folder.file("missing").path],
      ["--token-file", folder.file("short").path],
      ["--token-file", folder.file("short").path, "--token", "0123456789abcdef0123"],
    ] {
      let result = try await InProcessOffline.run(
        ["--store", store, "serve", "--listen", "127.0.0.1:1"] + extra, timeout: 30)
      #expect(result.status == 64, "\(extra): \(result.stderrText)")
      #expect(!result.stderrText.contains("short\n"), "\(result.stderrText)")
    }
  }
}
