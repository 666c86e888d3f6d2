import Foundation
import HLSPlaylist

/// The other sources of an HLS stream: the chosen variant's backups (the same `BANDWIDTH`,
/// `RESOLUTION` and `CODECS` at another URI, RFC 8216 §6.2.3) and its copies on other
/// content steering pathways, in ``MasterPlaylist/pathwayOrder`` (the steering manifest's
/// order when it answered, see ``HLSSteering``; the tag's `PATHWAY-ID` first otherwise).
/// Their media playlists are the pieces'
/// alternates (``StreamFailover``): a segment that fails is fetched from the same media
/// sequence number in a backup's playlist.
extension HLSDownload {
  /// The chosen variant and its backups, best first, as absolute URLs.
  func variantCandidates(_ master: MasterPlaylist, _ selection: HLSSelection)
    throws(Transfer.Error) -> [(variant: Variant, url: URL)]
  {
    var result: [(variant: Variant, url: URL)] = []
    for variant in [selection.variant] + master.backups(of: selection.variant) {
      let resolved = try HLSURI.resolve(variant.uri, against: url, what: "variant")
      if !result.contains(where: { $0.url == resolved }) { result.append((variant, resolved)) }
    }
    return result
  }

  /// The variant `entry` chooses, fetched from the first of its candidates that answers
  /// (a candidate answering 403, 404, 410, a 5xx or not reachable gives way to the next at
  /// once); what ``chosenVariant(of:)`` does for a stream without backups.
  func chosenVariantOrBackup(of entry: ParsedPlaylist) async throws(Transfer.Error)
    -> FetchedMedia?
  {
    guard case .master(let master) = entry.playlist,
      let selection = HLSSelection.choose(from: master, options: configuration),
      !master.backups(of: selection.variant).isEmpty
    else { return try await chosenVariant(of: entry) }
    let loadedAt = session.clock.instant
    let urls = try variantCandidates(master, selection).map(\.url)
    let (at, media) = try await firstAnswering(urls, importing: entry.variables)
    return FetchedMedia(url: urls[at], playlist: media, loadedAt: loadedAt)
  }

  /// The media playlist at the first of `urls` that gives one, with its index: each is
  /// tried as a piece, the last with every retry; an error that another source cannot
  /// mend (a refused redirect, a master where a media playlist belongs) ends at once.
  func firstAnswering(_ urls: [URL], importing variables: [String: String])
    async throws(Transfer.Error) -> (Int, MediaPlaylist)
  {
    var lastError = failure("no playlist to fetch")
    for (index, candidate) in urls.enumerated() {
      let isLast = index == urls.count - 1
      do {
        let fetched = try await pieceRetry.run(
          url: candidate, destination: folder.path,
          endsAtOnce: isLast ? { _ in false } : StreamFailover.movesOnAtOnce
        ) { () async throws(Transfer.Error) -> MediaPlaylist in
          try await mediaPlaylist(
            once: candidate, importing: variables, attempts: isLast ? nil : 2)
        }
        return (index, fetched)
      } catch {
        lastError = error
        guard !isLast, StreamFailover.triesNext(after: error) else { throw error }
      }
    }
    throw lastError
  }

  /// The media playlists of `urls` that answer at the first try, as alternates: a backup
  /// that does not answer now is left out, and costs no retries.
  func alternates(_ urls: [URL], importing variables: [String: String]) async
    -> [HLSPlanner.Alternate]
  {
    var result: [HLSPlanner.Alternate] = []
    for candidate in urls {
      guard
        let media = try? await mediaPlaylist(once: candidate, importing: variables, attempts: 1),
        media.hasEndList || media.playlistType == .vod
      else { continue }
      result.append(HLSPlanner.Alternate(url: candidate, playlist: media))
    }
    return result
  }

  /// The renditions standing in for `rendition` in `backups`: for each backup variant whose
  /// group of the same type differs, its rendition in that group that
  /// ``counterpart(of:in:among:)`` finds, as an absolute URL.
  func renditionCandidates(
    _ rendition: Rendition, in master: MasterPlaylist, backups: [Variant]
  ) throws(Transfer.Error) -> [URL] {
    var urls: [URL] = []
    let own = master.renditions.filter {
      $0.type == rendition.type && $0.groupID == rendition.groupID
    }
    for backup in backups {
      let group = rendition.type == .audio ? backup.audioGroup : backup.subtitlesGroup
      guard let group, group != rendition.groupID else { continue }
      let members = master.renditions.filter { $0.type == rendition.type && $0.groupID == group }
      guard let match = Self.counterpart(of: rendition, in: own, among: members),
        let uri = match.uri
      else { continue }
      let resolved = try HLSURI.resolve(uri, against: url, what: "rendition")
      if !urls.contains(resolved) { urls.append(resolved) }
    }
    return urls
  }

  /// The rendition of `members` (a backup's group) that is `rendition` (of its own group
  /// `own`): the one of the same `NAME` and `LANGUAGE`; else the only one of the same
  /// `NAME`; else the only one of the same `LANGUAGE` (with the same `CHARACTERISTICS`, when
  /// several share it); only when none of these tells, the one at `rendition`'s place in
  /// its group, and only when both groups are as long. Nil when nothing matches.
  static func counterpart(of rendition: Rendition, in own: [Rendition], among members: [Rendition])
    -> Rendition?
  {
    if let both = members.first(where: {
      $0.name == rendition.name && $0.language == rendition.language
    }) {
      return both
    }
    let named = members.filter { $0.name == rendition.name }
    if named.count == 1 { return named[0] }
    let sameLanguage = members.filter { $0.language != nil && $0.language == rendition.language }
    if sameLanguage.count == 1 { return sameLanguage[0] }
    let alike = sameLanguage.filter {
      $0.characteristics == rendition.characteristics && $0.channels == rendition.channels
    }
    if alike.count == 1 { return alike[0] }
    guard named.isEmpty, sameLanguage.isEmpty, own.count == members.count,
      let place = own.firstIndex(of: rendition)
    else { return nil }
    return members[place]
  }

  /// The media playlist at `url`, one piece try: the session's tries, at most `attempts`.
  private func mediaPlaylist(
    once url: URL, importing variables: [String: String], attempts: Int?
  ) async throws(Transfer.Error) -> MediaPlaylist {
    var fetch = HLSPlaylistFetch(session: session, destination: folder.path)
    fetch.maximumAttempts = attempts
    let fetched = try await fetch.playlist(at: url, importing: variables)
    guard case .media(let media) = fetched.playlist else {
      throw failure("\(url.redactedForDisplay) is a master playlist where a media playlist belongs")
    }
    return media
  }
}
