// swift-tools-version:6.0
// OfflineKit: resumable, verified offline downloads for Swift on Linux and Apple platforms.

import PackageDescription

/// A C library from the system, found with pkg-config, with the package that provides it on
/// Debian/Ubuntu (apt) and macOS (Homebrew).
func cLibrary(_ name: String, pkgConfig: String, apt: String, brew: String) -> Target {
  .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt]), .brew([brew])])
}

let package = Package(
  name: "OfflineKit",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "OfflineKit", targets: ["OfflineKit"]),
    .library(name: "OfflineHTTP", targets: ["OfflineHTTP"]),
    .library(name: "OfflineStore", targets: ["OfflineStore"]),
    .library(name: "HLSPlaylist", targets: ["HLSPlaylist"]),
    .library(name: "DASHManifest", targets: ["DASHManifest"]),
    .library(name: "Metalink", targets: ["Metalink"]),
    .library(name: "OfflineExport", targets: ["OfflineExport"]),
    .executable(name: "offline", targets: ["offline"]),
    .executable(name: "offline-export", targets: ["offline-export"]),
  ],
  targets: [
    // C shims: typed wrappers for what Swift cannot call (variadic functions, macros).
    cLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev", brew: "curl"),
    cLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev", brew: "sqlite"),
    .systemLibrary(name: "CSystem"),
    cLibrary("CCrypto", pkgConfig: "libcrypto", apt: "libssl-dev", brew: "openssl"),
    cLibrary(
      "CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: "libmicrohttpd-dev", brew: "libmicrohttpd"),
    // FFmpeg's demuxers, muxers and bitstream filters, for export (remux only, never decode).
    .systemLibrary(
      name: "CAVFormat", pkgConfig: "libavformat",
      providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"]), .brew(["ffmpeg"])]),

    // Single-purpose modules.
    .target(name: "OfflineLocks", dependencies: ["CSystem"]),
    // SIGINT and SIGTERM handed to a thread of ours: both executables stop on them.
    .target(name: "OfflineSignals"),
    .target(name: "HexDigits"),
    .target(name: "HLSPlaylist", dependencies: ["HexDigits"]),
    // The XML tree both XML formats read, on Foundation's XMLParser; internal to the package.
    .target(name: "XMLTree"),
    .target(name: "DASHManifest", dependencies: ["XMLTree"]),
    // What a source says a file is and where else it is: Metalink 3 and 4, RFC 6249 Link
    // headers, RFC 9530 digests. Pure, like the manifests.
    .target(name: "Metalink", dependencies: ["XMLTree", "HexDigits"]),
    // On Apple platforms libcurl, SQLite and OpenSSL come from elsewhere: URLSessionTransport,
    // the SDK's SQLite3, CryptoKit (see docs/Apple.md); on Linux nothing changes.
    .target(
      name: "OfflineHTTP",
      dependencies: [
        .target(name: "CCurl", condition: .when(platforms: [.linux])), "OfflineLocks", "HexDigits",
      ]),
    .target(
      name: "OfflineStore",
      dependencies: [
        .target(name: "CSQLite", condition: .when(platforms: [.linux])), "OfflineLocks",
      ]),

    // The public face.
    .target(
      name: "OfflineKit",
      dependencies: [
        "HLSPlaylist", "DASHManifest", "OfflineHTTP", "OfflineStore", "OfflineLocks", "CSystem",
        "HexDigits", "Metalink",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ]
    ),

    // One playable file out of a downloaded stream: a remux with libavformat on Linux. Beside
    // the face, so an app that does not export does not link FFmpeg.
    .target(
      name: "OfflineExport",
      dependencies: [
        .target(name: "CAVFormat", condition: .when(platforms: [.linux])), "HLSPlaylist",
        "DASHManifest", "XMLTree",
      ]),

    // The command-line tool: commands as a library so tests can drive them, and a thin main.
    // The local service behind `offline serve`: HTTP, the JSON API, events, the web page.
    .target(
      name: "OfflineService",
      dependencies: ["OfflineKit", "OfflineHTTP", "OfflineLocks", "HexDigits", "CMicroHTTPD"]),
    .target(
      name: "OfflineCLI",
      dependencies: [
        "OfflineKit", "OfflineHTTP", "OfflineLocks", "OfflineService", "HLSPlaylist", "HexDigits",
        // `offline export` and `get -o FILE.mp4` run the offline-export executable, so that
        // FFmpeg's libraries (about a hundred) load only in the process that exports.
        "ExportChannel", "OfflineSignals",
      ]),
    .executableTarget(name: "offline", dependencies: ["OfflineCLI", "CSystem"]),
    // What `offline` and `offline-export` say to each other: the request as arguments, the
    // answers as JSON lines. No FFmpeg, no store.
    .target(name: "ExportChannel"),
    // The exporter `offline export` runs: OfflineExport (FFmpeg) and nothing of the store or
    // of HTTP, so it starts with FFmpeg's libraries and little else.
    .executableTarget(
      name: "offline-export",
      dependencies: ["OfflineExport", "ExportChannel", "OfflineSignals", "CSystem"]),
    // The README's code samples, compiled by every build.
    .executableTarget(
      name: "offline-examples", dependencies: ["OfflineKit"],
      path: "Examples"),
    // Measurements for benchmarks/, kept out of the shipping binary.
    .executableTarget(
      name: "offline-bench", dependencies: ["OfflineKit", "OfflineStore", "OfflineLocks"],
      path: "Sources/offline-bench"),

    // Tests: real nginx, our own fault server, temporary directories.
    .target(
      name: "TestSupport", dependencies: ["CCrypto", "OfflineHTTP", "OfflineLocks"],
      path: "Tests/TestSupport"),
    // Every suite's `.timed` trait: how long each test ran, for scripts/slowest-suites.
    .target(name: "TestTiming", path: "Tests/TestTiming"),
    .testTarget(
      name: "TestSupportTests", dependencies: ["OfflineHTTP", "TestSupport", "TestTiming"]),
    .testTarget(name: "HexDigitsTests", dependencies: ["HexDigits", "TestTiming"]),
    .testTarget(name: "OfflineLocksTests", dependencies: ["OfflineLocks", "TestTiming"]),
    // Real ffmpeg-made fixtures, exported and checked with ffprobe; no TestSupport, so the
    // suite does not build the whole package.
    .testTarget(
      name: "OfflineExportTests",
      dependencies: ["OfflineExport", "HLSPlaylist", "DASHManifest", "XMLTree", "TestTiming"]),
    .testTarget(name: "HLSPlaylistTests", dependencies: ["HLSPlaylist", "TestTiming"]),
    .testTarget(
      name: "DASHManifestTests", dependencies: ["DASHManifest", "TestSupport", "TestTiming"]),
    .testTarget(name: "MetalinkTests", dependencies: ["Metalink", "TestTiming"]),
    .testTarget(
      name: "OfflineHTTPTests",
      dependencies: ["OfflineHTTP", "OfflineLocks", "TestSupport", "TestTiming"]),
    .testTarget(
      name: "OfflineStoreTests", dependencies: ["OfflineStore", "TestSupport", "TestTiming"]),
    .testTarget(
      name: "OfflineKitTests",
      dependencies: [
        "OfflineKit", "OfflineLocks", "TestSupport", "TestTiming",
        // The README's samples, run by tests where they can be.
        "offline-examples",
      ]),
    .testTarget(
      name: "OfflineCLITests",
      dependencies: ["OfflineCLI", "offline", "offline-export", "TestSupport", "TestTiming"]
    ),
    .testTarget(
      name: "OfflineServiceTests",
      dependencies: ["OfflineService", "OfflineKit", "offline", "TestSupport", "TestTiming"],
      exclude: ["scripts"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
