import Foundation
import TestSupport
import TestTiming
import Testing

/// Whole `--help` pages, compared with what a user should read: any drift between a command's
/// declaration and its help shows here.
@Suite(.ownThreads, .timed) struct HelpTextTests {
  /// The request-option rows that `get` and `cache get` share, exactly as both pages show
  /// them.
  static let requestOptionRows = """
      -H, --header <'Name: value'>
                              Send this header field with every request of the
                              content (files, playlists, segments, keys);
                              repeatable. Authorization, Cookie and
                              Proxy-Authorization are secrets.
      --secret-header <name>  Treat this header as a secret too: never shown, never
                              sent on.
      --user-agent <text>     Send this User-Agent instead of OfflineKit's.
      --referer <url>         Send this Referer with every request.
      --cookies <file>        Send cookies from this Netscape cookies.txt (what curl
                              -b and yt-dlp --cookies read); cookies the server sets
                              are kept for the content's later requests.
      -u, --user <user[:password]>
                              HTTP Basic credentials; without a password it is asked
                              for on the terminal.
      --netrc                 Read the host's credentials from ~/.netrc, as curl
                              does.
      --netrc-file <file>     Read the host's credentials from this netrc file.
      --trust-origin <url>    Send credentials and secret headers to this origin
                              (scheme, host, port) too, when the playlist or
                              manifest places pieces there; by default only the
                              given URL's origin gets them. Repeatable.
      --location-trusted      Send credentials, cookies and secret headers on after
                              a redirect to another origin (by default they stay
                              behind).
      --limit-rate <rate>     Receive at most this many bytes per second for the
                              content, all its requests together (500k, 2M, 1G:
                              powers of 1024, as curl).
    """

  static func help(_ arguments: [String]) async throws -> String {
    let result = try await InProcessOffline.run(arguments)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stderrText.isEmpty)
    return result.stdoutText
  }

  // Pins issue 12, item 4: help rows, usage line and parser were written separately and
  // drifted (get's usage line left out five options).
  @Test func theToolsHelpListsEverySubcommand() async throws {
    await #expect(
      try Self.help(["--help"]) == """
        OVERVIEW: Make remote files available offline: resumable, verified downloads.

        USAGE: offline [--store <dir>] [--version] <subcommand>

        OPTIONS:
          --store <dir>           The store: the download index and offline content.
                                  Default: $OFFLINE_STORE, else $XDG_DATA_HOME/offline,
                                  else ~/.local/share/offline.
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          get                     Download a file for offline use, resuming where an
                                  earlier run stopped.
          add                     Queue URLs for download and print their ids; 'offline
                                  run' downloads them.
          ls                      List the store's contents: id, state, progress, why it
                                  waits, title and URL.
          run                     Download the queued contents until nothing is left to
                                  do.
          serve                   Work the queue and serve it over HTTP to browsers,
                                  players and programs.
          info                    Show what an HLS stream or a DASH presentation offers:
                                  variants, audio, subtitles, duration, encryption.
          cache                   Cache-or-download for small files, size-limited, least
                                  recently used out first.
          verify                  Check that downloaded contents are whole: every file's
                                  length and SHA-256, each 4 MiB chunk, each segment.
          repair                  Mend a damaged downloaded content, fetching only its
                                  damaged chunks or segments.
          export                  Write a downloaded stream as one MP4 or MKV file:
                                  remuxed, never re-encoded, and checked against the
                                  offline copy.
          pause                   Pause a download, keeping its partial data
                                  (downloading -> suspended).
          resume                  Resume a paused download (suspended -> downloading).
          cancel                  Stop a download and delete its partial data (->
                                  notDownloaded).
          rm                      Delete a downloaded content's file (downloaded ->
                                  notDownloaded).
          download                Queue a content that is not downloaded (notDownloaded
                                  -> downloading).
          forget                  Remove a content that is not downloaded from the
                                  store.
          path                    Print the path a player opens: a downloaded content's
                                  file (index.m3u8 for a stream), or the growing
                                  playlist of a stream that is downloading or paused.
          renew-keys              Fetch a downloaded stream's keys again, without its
                                  segments.
          set-url                 Replace the URL of a queued, downloading or suspended
                                  content.
          limit                   Cap the bytes per second of all the queue's running
                                  downloads together.
          completions             Print a shell completion script for offline.
          help                    Show the help of a subcommand, or the man page.

        See 'offline help <subcommand>' for detailed help.

        """)
  }

  // Pins issue 12, item 4: help rows, usage line and parser were written separately and
  // drifted (get's usage line left out five options).
  @Test func getsHelpListsEveryOptionInItsUsageAndItsRows() async throws {
    await #expect(
      try Self.help(["get", "--help"]) == """
        OVERVIEW: Download a file for offline use, resuming where an earlier run
        stopped.

        USAGE: offline [--store <dir>] get <url> [--output <path>] [--sha256 <hex>]
               [--mirror <url> ...] [--peer <url> ...] [--ca-file <pem>] [--proxy <url>]
               [--noproxy <hosts>] [--stall-timeout <s>] [--retries <n>]
               [--min-free <size>] [--connections <n>] [--force] [--wait]
               [--refresh-command <command>] [--header <'Name: value'> ...]
               [--secret-header <name> ...] [--user-agent <text>] [--referer <url>]
               [--cookies <file>] [--user <user[:password]>] [--netrc]
               [--netrc-file <file>] [--trust-origin <url> ...] [--location-trusted]
               [--limit-rate <rate>] [--variant <v>] [--audio <a>] [--subtitles <s>]
               [--piece-retries <n>] [--piece-retry-delay <s>] [--max-connections <n>]
               [--segment-files] [--from-start] [--live-offset <duration>]
               [--record-for <duration>] [--record-until <time>]
               [--end-after <duration>] [--split <duration>] [--subs-sidecar] [--quiet]
               [--json]

        ARGUMENTS:
          <url>                   The http or https URL to download. An HLS playlist
                                  (.m3u8) becomes a folder with an offline playlist,
                                  index.m3u8, that players play without a network; a
                                  DASH manifest (.mpd) a folder with an offline
                                  index.mpd. A Metalink (a .meta4 or .metalink URL or
                                  file, or a URL whose answer is one or links one with
                                  rel=describedby) becomes the file it describes: its
                                  name, size and SHA-256 are checked, its URLs are the
                                  sources by priority, and with piece hashes a bad piece
                                  is fetched again alone from another source.

        OPTIONS:
          -o, --output <path>     Where to put the file. A folder (existing, or ending
                                  in /) gets the name from the URL. Default: the URL's
                                  last path component, made safe, in the current folder.
                                  For a stream, a file ending in .mp4 or .mkv gets the
                                  stream as one file (see 'offline export'): downloaded
                                  first into a hidden folder beside it, .NAME.offline,
                                  which is removed once the file is in place and
                                  verified.
          --sha256 <hex>          The SHA-256 the file must have; a file that does not
                                  match is not kept.
          --mirror <url>          Another http or https URL of the same file (repeat for
                                  more). Each is asked for the file's first byte before
                                  any of its bytes are used; one whose length differs,
                                  or that serves no ranges, is dropped and named. Ranges
                                  go to every usable source by measured speed; a slow
                                  one never holds the end, one that keeps failing rests
                                  and is tried again later. Secrets (--header marked
                                  secret, cookies, credentials) are never sent to
                                  mirrors. Files of 8 MiB and more; not for streams.
          --peer <url>            A nearby 'offline serve' (http://host:8380, with
                                  ?token=TOKEN as it printed; repeat for more) asked for
                                  the file by its URL before the origin: a peer that
                                  holds it downloaded serves it as a mirror preferred to
                                  the origin, its length and bytes checked like any
                                  mirror's; the origin serves what the peers cannot. A
                                  peer that is down is named; one that holds nothing is
                                  passed over. With the origin down or without ranges, a
                                  peer serves the whole file, checked against its own
                                  record. Not for streams.
          --ca-file <pem>         Trust only the CA certificates in this PEM file.
                                  Without it, CURL_CA_BUNDLE (only that file), else
                                  SSL_CERT_FILE and SSL_CERT_DIR (a PEM file, a folder
                                  of hashed names; each replaces the system's of its
                                  kind), else the system's. The order: --ca-file, then
                                  CURL_CA_BUNDLE, then SSL_CERT_FILE and SSL_CERT_DIR,
                                  then the system's.
          --proxy <url>           Go through this proxy (http://, https://, socks5h://,
                                  socks5://; user:password@ allowed, never shown)
                                  instead of http_proxy (http URLs; HTTP_PROXY is
                                  ignored, as curl ignores it), https_proxy or
                                  HTTPS_PROXY (https URLs), else all_proxy or ALL_PROXY.
          --noproxy <hosts>       Reach these hosts directly, instead of those in
                                  no_proxy or NO_PROXY: comma-separated names (each
                                  covers its subdomains), IP addresses or prefixes
                                  (10.0.0.0/8); * for every host.
          --stall-timeout <s>     Give up on a connection after this many seconds
                                  without data; the download resumes on the next
                                  attempt. (default: 30)
          --retries <n>           Attempts in a row without progress before failing.
                                  (default: 5)
          --min-free <size>       Start only if the file fits leaving this much free
                                  (512K, 1G).
          --connections <n>       Fetch a large file (8 MiB and more) over n connections
                                  (at most 32), in ranges written in place (default:
                                  one, switching to eight when a file with 64 MiB or
                                  more left is slow on one connection, then adding four
                                  at a time while they raise the speed, up to 16 or
                                  --max-connections; helps against per-connection
                                  limits). With --max-connections above n, n grows the
                                  same way.
          --force                 Replace a regular file (or a symbolic link: the link
                                  itself, never its target) at the output path that
                                  offline did not download. Folders, devices, FIFOs and
                                  sockets are never replaced.
          --wait                  When another download is writing the same output file,
                                  wait for it to end instead of failing at once.
          --refresh-command <command>
                                  When the URL is answered 401, 403 or 410 (a signed URL
                                  that expired), run this with /bin/sh -c (OFFLINE_URL
                                  and OFFLINE_STATUS set, at most 20 s) and go on from
                                  the http or https URL it prints; the bytes on disk are
                                  kept when it serves the same file. For a stream (HLS,
                                  DASH), a playlist, segment, key or init section so
                                  answered is not tried again: the playlist or manifest
                                  is read from the new URL and the pieces on disk are
                                  kept.
        \(Self.requestOptionRows)
          --variant <v>           HLS: 'highest' (default), 'lowest', or a minimum
                                  bitrate in bits/s (800000, 800k, 2M): the lowest
                                  variant at or above it, else the highest.
          --audio <a>             HLS: audio languages (en,fr), 'default' (default) or
                                  'all'.
          --subtitles <s>         HLS: subtitle languages (en,fr), 'none' (default) or
                                  'all'.
          --piece-retries <n>     HLS: tries again of one playlist, segment or key that
                                  failed (403, 404, 408, 410, 429, 5xx, a lost
                                  connection) before the download fails naming it
                                  (default 10). With get --refresh-command, a 401, 403
                                  or 410 asks for a fresh URL at once instead.
          --piece-retry-delay <s>
                                  HLS: seconds before a piece's first retry, doubled
                                  after each (default 1).
          --max-connections <n>   HLS, DASH: at most n connections to the origin for a
                                  stream's segments over HTTP/1.1 (default: up to 16,
                                  added while they still raise the speed). HTTP/2 sends
                                  them all on one connection.
          --segment-files         HLS: a file for each media segment. By default
                                  unencrypted segments that fit in 128 KiB go into one
                                  file per playlist (pack.ts), which the offline
                                  playlist addresses by byte range.
          --from-start            Live HLS, DASH: record from the oldest segment still
                                  in the playlist or the MPD's time-shift window
                                  (default: the live edge, three segment durations from
                                  its end, as players start).
          --live-offset <duration>
                                  Live HLS, DASH: start this far behind the live edge
                                  instead (45s, 2m): at the last segment that begins at
                                  least this long before the end of the playlist or the
                                  MPD's window. Not with --from-start.
          --record-for <duration>
                                  Live HLS, DASH: stop once this much is recorded (90,
                                  45s, 20m, 1h30m), counted in recorded media, so a
                                  rerun after a stop goes on counting.
          --record-until <time>   Live HLS, DASH: stop at this time (18:30 local, or
                                  2026-12-07T18:30:00Z).
          --end-after <duration>  Live HLS, DASH: take the stream as ended when its
                                  playlist or MPD still answers but brings no new
                                  segment for this long (default: six target durations);
                                  a playlist that fails is waited for longer, as an
                                  origin may come back.
          --split <duration>      Live HLS, DASH: record consecutive parts of about this
                                  much media each (10m, 1h) into part001/, part002/… of
                                  the output folder, each its own offline copy; no
                                  segment is lost or recorded twice between two parts.
                                  --record-for then counts all parts.
          --subs-sidecar          With -o FILE.mp4 or FILE.mkv of a stream: also write
                                  its subtitle track as FILE.vtt beside the file
                                  (refused like the file when it exists, unless
                                  --force).
          -q, --quiet             Print nothing but errors.
          --json                  Print one JSON object per event on standard output.
          -h, --help              Show help information.

        Running the same command again resumes a partial download; on a file that is
        already complete and verified it says so and downloads nothing.

        EXIT CODES: 0 complete and verified, 1 failed, 64 usage error, 130 stopped by
        SIGINT, 143 stopped by SIGTERM (partial data and the journal are kept).

        """)
  }

  // Pins issue 12, item 4: help rows, usage line and parser were written separately and
  // drifted (get's usage line left out five options).
  @Test func cachesHelpListsItsSubcommands() async throws {
    await #expect(
      try Self.help(["cache", "--help"]) == """
        OVERVIEW: Cache-or-download for small files, size-limited, least recently used
        out first.

        USAGE: offline [--store <dir>] cache <subcommand>

        OPTIONS:
          -h, --help              Show help information.

        SUBCOMMANDS:
          get                     Print the local path of a URL's file, downloading it
                                  unless cached.
          ls                      List the cached files, most recently used first.
          stats                   Show the cache's size, limit and entries, and the
                                  store's offline content.
          clear                   Delete every cached file (offline content is kept).
          limit                   Set the cache's size limit, evicting least recently
                                  used files to fit.

        Files live in <store>/cache, named by a hash of the URL. Offline content
        ('offline add') is served from its own file and never evicted.

        See 'offline help cache <subcommand>' for detailed help.

        """)
  }

  // Pins issue 12, item 4: help rows, usage line and parser were written separately and
  // drifted (get's usage line left out five options).
  @Test func aNestedCommandsHelpShowsTheWholePath() async throws {
    await #expect(
      try Self.help(["cache", "get", "--help"]) == """
        OVERVIEW: Print the local path of a URL's file, downloading it unless cached.

        USAGE: offline [--store <dir>] cache get <url> [--output <path>] [--key <key>]
               [--header <'Name: value'> ...] [--secret-header <name> ...]
               [--user-agent <text>] [--referer <url>] [--cookies <file>]
               [--user <user[:password]>] [--netrc] [--netrc-file <file>]
               [--trust-origin <url> ...] [--location-trusted] [--limit-rate <rate>]

        ARGUMENTS:
          <url>                   The http or https URL.

        OPTIONS:
          -o, --output <path>     Copy the file to this path instead of printing its
                                  path.
          --key <key>             Cache under this key instead of the URL (for signed
                                  URLs).
        \(Self.requestOptionRows)
          -h, --help              Show help information.

        A stale file is revalidated with the server; offline, it is served anyway with a
        warning on standard error.

        """)
  }

  @Test func helpOfASubcommandIsTheSameAsItsHelpOption() async throws {
    await #expect(
      try Self.help(["help", "cache", "get"]) == Self.help(["cache", "get", "--help"]))
    await #expect(try Self.help(["help"]) == Self.help(["--help"]))
  }
}
