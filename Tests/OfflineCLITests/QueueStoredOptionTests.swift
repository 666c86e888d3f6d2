import Foundation
import TestSupport
import TestTiming
import Testing

/// `add` keeps a content's request options in the store (issue 13, item 2): a `run` in
/// another process sends them, and their secrets live in the store's secrets folder alone.
@Suite(.serialized, .ownThreads, .timed) struct QueueStoredOptionTests {
  static let body = TestData.bytes(count: 150_000, seed: 43)
  /// A token nginx refuses, so one content fails and its error can be read.
  static let wrongToken = "wr0ng-s3cret"
  /// Every secret given to `add` in these tests.
  static let secrets = [
    NginxGates.token, NginxGates.password, NginxGates.headerValue, NginxGates.cookieValue,
    wrongToken,
  ]

  struct Setup {
    let origin: GatedOrigin
    let folder: TemporaryDirectory

    init(streams: [String: HLSFixture] = [:]) async throws {
      origin = try await GatedOrigin(
        files: ["a.bin": QueueStoredOptionTests.body], streams: streams)
      folder = try TemporaryDirectory()
    }

    var store: URL { folder.url.appending(path: "store", directoryHint: .isDirectory) }

    /// `offline --store STORE ARGUMENTS`, each run a process of its own.
    func offline(_ arguments: [String]) async throws -> OfflineRun {
      try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 90)
    }

    /// `offline add ARGUMENTS`, checked; the id it printed.
    func add(_ arguments: [String]) async throws -> String {
      let result = try await offline(["add"] + arguments)
      #expect(result.status == 0, "\(result.stderrText)")
      return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The downloaded file of content `id`.
    func file(_ id: String) -> Data? {
      FileManager.default.contents(atPath: StoreFiles.file("a.bin", of: id, in: store).path)
    }
  }

  /// Pins: `add`'s options lived only in the adding process's memory, so a `run` in another
  /// process sent none and every gated folder answered 401 or 403.
  @Test func aRunInAnotherProcessSendsTheOptionsAddWasGiven() async throws {
    let setup = try await Setup()
    let url = { (folder: String) in setup.origin.fileURL("a.bin", in: folder).absoluteString }
    let ids = await [
      try setup.add([url("bearer"), "-H", "Authorization: Bearer \(NginxGates.token)"]),
      try await setup.add([url("basic"), "-u", "\(NginxGates.user):\(NginxGates.password)"]),
      try await setup.add([url("cookie"), "--cookies", try setup.origin.cookiesFile().path]),
      try await setup.add([
        url("referer"), "--referer", NginxGates.referer, "--user-agent", "Player/3",
      ]),
      try await setup.add([
        url("header"), "-H", "\(NginxGates.headerName): \(NginxGates.headerValue)",
        "--secret-header", NginxGates.headerName,
      ]),
      try await setup.add([
        url("basic"), "--id", "netrc", "--netrc-file", try setup.origin.netrcFile().path,
      ]),
    ]
    let run = try await setup.offline(["run", "--quiet"])
    #expect(run.status == 0, "\(run.stderrText)")
    for id in ids { #expect(setup.file(id) == Self.body, "\(id) was not downloaded") }
    let log = try setup.origin.server.accessLog()
    #expect(log.allSatisfy { $0.status < 400 }, "\(log.map { "\($0.uri) \($0.status)" })")
    #expect(log.contains { $0.userAgent == "Player/3" })
  }

  /// Pins: a secret given to `add` must be kept (it was not kept at all), and only in the
  /// secrets folder: never in `ls --json`, the run's output and errors, the index (mode
  /// 0600 with its -wal and -shm), the manifests or the offline playlists.
  @Test func aSecretIsFoundNowhereInTheStoreButItsSecretsFile() async throws {
    let setup = try await Setup(streams: ["hls": .aes128Rotating])
    let origin = setup.origin
    let bearer = "Authorization: Bearer \(NginxGates.token)"
    let secretHeader =
      ["-H", "\(NginxGates.headerName): \(NginxGates.headerValue)"]
      + ["--secret-header", NginxGates.headerName]
    let file = try await setup.add(
      [origin.fileURL("a.bin", in: "bearer").absoluteString, "-H", bearer] + secretHeader)
    let basic = try await setup.add([
      origin.fileURL("a.bin", in: "basic").absoluteString, "-u",
      "\(NginxGates.user):\(NginxGates.password)",
    ])
    let stream = try await setup.add([
      origin.streamURL("hls", in: "bearer").absoluteString, "-H", bearer,
    ])
    let refused = try await setup.add([
      origin.url("/bearer/a.bin?again").absoluteString, "-H",
      "Authorization: Bearer \(Self.wrongToken)",
    ])
    let run = try await setup.offline(["run"])
    #expect(run.status == 1, "the content with the wrong token fails: \(run.stderrText)")
    #expect(setup.file(file) == Self.body)
    #expect(setup.file(basic) == Self.body)
    let listed = try await setup.offline(["ls", "--json"])
    #expect(listed.stdoutText.contains("\"\(stream)\""))
    #expect(listed.stdoutText.contains("401"), "the refused content's error: \(listed.stdoutText)")
    #expect(listed.stdoutText.contains(refused))
    let info = try await setup.offline(["ls"])
    for output in [
      run.stdoutText, run.stderrText, listed.stdoutText, listed.stderrText, info.stdoutText,
    ] {
      for secret in Self.secrets { #expect(!output.contains(secret), "\(secret) in \(output)") }
    }

    let store = setup.store
    let secretsFolder = store.appending(path: "secrets").path
    var checked = 0
    var playlists = 0
    let walker = try #require(FileManager.default.enumerator(atPath: store.path))
    while let relative = walker.nextObject() as? String {
      let path = store.appending(path: relative).path
      guard !path.hasPrefix(secretsFolder + "/"),
        let data = FileManager.default.contents(atPath: path)
      else { continue }
      checked += 1
      if path.hasSuffix(".m3u8") { playlists += 1 }
      for secret in Self.secrets {
        #expect(data.range(of: Data(secret.utf8)) == nil, "\(secret) in \(relative)")
      }
    }
    #expect(checked > 10 && playlists > 0, "\(checked) files, \(playlists) playlists")

    for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] {
      let path = store.appending(path: name).path
      guard name == "index.sqlite" || FileManager.default.fileExists(atPath: path) else { continue }
      #expect(try await Self.mode(path) == 0o600, "\(name)")
    }
    #expect(try await Self.mode(secretsFolder) == 0o700)
    let kept = try FileManager.default.contentsOfDirectory(atPath: secretsFolder)
    #expect(kept.count == 4, "\(kept)")
    for name in kept { #expect(try await Self.mode(secretsFolder + "/" + name) == 0o600) }
    let fileSecrets = try #require(
      FileManager.default.contents(atPath: secretsFolder + "/\(file).json"))
    #expect(fileSecrets.range(of: Data(NginxGates.token.utf8)) != nil)
  }

  /// Pins: a content given again without options (a second `add` of its URL) must keep the
  /// options given first; the options given last win only when some are given.
  @Test func aLaterAddWithoutOptionsKeepsTheOptionsGivenEarlier() async throws {
    let setup = try await Setup()
    let url = setup.origin.fileURL("a.bin", in: "bearer").absoluteString
    let id = try await setup.add([url, "-H", "Authorization: Bearer \(NginxGates.token)"])
    #expect(try await setup.offline(["cancel", id]).status == 0)
    #expect(try await setup.add([url]) == id)
    let run = try await setup.offline(["run", "--quiet"])
    #expect(run.status == 0, "\(run.stderrText)")
    #expect(setup.file(id) == Self.body)
  }

  /// Pins: `get --min-free` asked for the size with a `HEAD` that carried none of the
  /// request options, so a source behind a token answered it 401 and the size was unknown.
  @Test func getMinFreeAsksForTheSizeWithTheRequestOptions() async throws {
    let setup = try await Setup()
    let result = try await setup.offline([
      "get", setup.origin.fileURL("a.bin", in: "bearer").absoluteString, "-o",
      setup.folder.file("a.bin").path, "-H", "Authorization: Bearer \(NginxGates.token)",
      "--min-free", "0",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let heads = try setup.origin.server.accessLog().filter { $0.method == "HEAD" }
    #expect(heads.count == 1)
    #expect(heads.allSatisfy { $0.status == 200 }, "\(heads.map(\.status))")
  }

  static func mode(_ path: String) async throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
  }

  /// Pins (found at the merge of issues 13 and 15): repair fetched a damaged chunk with the
  /// options of the repairing process's memory, so `offline repair` in a new process sent no
  /// token and the origin refused it.
  @Test func aRepairInAnotherProcessSendsTheOptionsAddWasGiven() async throws {
    let setup = try await Setup()
    let url = setup.origin.fileURL("a.bin", in: "bearer").absoluteString
    let id = try await setup.add([url, "-H", "Authorization: Bearer \(NginxGates.token)"])
    let run = try await setup.offline(["run"])
    #expect(run.status == 0, "\(run.stderrText)")
    let path = StoreFiles.file("a.bin", of: id, in: setup.store).path
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.seek(toOffset: 1000)
    try handle.write(contentsOf: Data([0x55, 0xAA]))
    try handle.close()

    let repair = try await setup.offline(["repair", id])
    #expect(repair.status == 0, "\(repair.stderrText)")
    #expect(setup.file(id) == Self.body)
    #expect(!repair.stderrText.contains(NginxGates.token))
  }
}
