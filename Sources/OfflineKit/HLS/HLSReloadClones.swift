import Foundation
import HLSPlaylist
import OfflineLocks

/// Pathway clones that first appear in a steering reload (the HLS Content Steering
/// specification, "Pathway Cloning"), made sources of the download that runs: the clones of
/// the first manifest are pathways from the start (``HLSSteering``); one that a later
/// manifest adds is copied the same way (``HLSSteering/cloned(_:by:playlistURL:manifestURL:)``),
/// its copy of the chosen variant and renditions fetched, and each piece's URL there handed
/// to the stream's ``StreamFailover`` (``StreamFailover/add(_:pathway:urls:)``), so the
/// reload's `PATHWAY-PRIORITY` can put it first and a failing pathway gives way to it.
///
/// Used from the reloading task only (``SteeringReloader/addsSources``), one manifest at a
/// time. A clone is considered once, by its `ID`: one left out (its base is no pathway, its
/// playlist does not answer) is not asked again in the run; why it was left out goes to the
/// download's log (a malformed entry, which names no `ID` to remember, is left out quietly:
/// the first manifest's are logged by ``HLSSteering``). Keys stay those of the first
/// pathways (fetched before the pieces).
struct HLSReloadClones: Sendable {
  let download: HLSDownload
  let selection: HLSSelection
  let plan: HLSPlan
  let failover: StreamFailover
  /// The multivariant playlist's variables (for `EXT-X-DEFINE:IMPORT`).
  let variables: [String: String]
  /// The playlist with every clone applied so far, and the pathway IDs considered.
  private let state: Locked<(master: MasterPlaylist, seen: Set<String>)>

  init(
    download: HLSDownload, master: MasterPlaylist, selection: HLSSelection, plan: HLSPlan,
    failover: StreamFailover, variables: [String: String]
  ) {
    self.download = download
    self.selection = selection
    self.plan = plan
    self.failover = failover
    self.variables = variables
    let pathways = master.variants.map { $0.pathwayID ?? ContentSteering.defaultPathwayID }
    state = Locked((master, Set(pathways)))
  }

  /// Adds the pathways that the `PATHWAY-CLONES` of `object` (a manifest loaded from
  /// `manifestURL`) make and that were not considered before; returns their IDs, one per
  /// source added to ``failover``, in the order added.
  func add(from object: [String: Any], manifestURL: URL) async -> [String?] {
    let (clones, _) = HLSSteering.clones(of: object["PATHWAY-CLONES"])
    let (fresh, master) = state.withLock { state in
      let fresh = clones.filter { !state.seen.contains($0.id) }
      state.seen.formUnion(fresh.map(\.id))
      return (fresh, state.master)
    }
    guard !fresh.isEmpty else { return [] }
    let (cloned, ignored) = HLSSteering.cloned(
      master, by: fresh, playlistURL: download.url, manifestURL: manifestURL)
    for line in ignored { download.log("content steering: \(line)") }
    state.withLock { $0.master = cloned }
    var added: [String?] = []
    for clone in fresh where await addSource(on: clone.id, of: cloned) {
      added.append(clone.id)
    }
    return added
  }

  /// Adds the chosen variant's copy on `pathway` of `master` as a source, with its
  /// renditions' copies; false when it has none, it is a source already, or its playlist
  /// does not answer.
  private func addSource(on pathway: String, of master: MasterPlaylist) async -> Bool {
    guard
      let variant = master.variants.first(where: {
        $0.pathwayID == pathway && MasterPlaylist.isRedundant($0, with: selection.variant)
      }),
      let url = try? HLSURI.resolve(variant.uri, against: download.url, what: "variant"),
      !failover.names.contains(url), !plan.sources.isEmpty
    else { return false }
    var sources = plan.sources
    guard let media = await download.alternates([url], importing: variables).first else {
      download.log(
        "content steering: pathway \(pathway) is not used: its playlist"
          + " \(url.redactedForDisplay) did not load")
      return false
    }
    sources[0].alternates = [media]
    for index in sources.indices.dropFirst() {
      sources[index].alternates = []
      guard let rendition = sources[index].rendition,
        let copy = try? download.renditionCandidates(rendition, in: master, backups: [variant])
          .first,
        let found = await download.alternates([copy], importing: variables).first
      else { continue }
      sources[index].alternates = [found]
    }
    // The same playlists planned again, with the clone as their only alternate: each
    // piece's local name is the same, its alternate its URL on the clone.
    guard
      let planned = try? HLSPlanner.plan(entryURL: download.url, sources: sources, master: nil)
    else { return false }
    var urls: [String: URL] = [:]
    for piece in planned.pieces {
      if let there = piece.alternates.first { urls[piece.local] = there }
    }
    guard !urls.isEmpty else { return false }
    _ = failover.add(url, pathway: pathway, urls: urls)
    return true
  }
}
