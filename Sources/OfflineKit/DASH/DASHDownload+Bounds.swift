import DASHManifest

extension DASHDownload {
  /// Refuses, before any listing is made, a selection whose segments would pass a
  /// `SegmentBudget` (200,000 segments and 64 MiB of URLs in all, Periods and
  /// Representations together) or one Representation's bounds (`SegmentResolver`): a manifest
  /// of a few kilobytes can name gigabytes of URLs, and planning holds them all.
  ///
  /// - Throws: ``Transfer/Error`` (`invalidMedia`) naming the Representation and the bound.
  func checkExpansion(of selection: DASHSelection, in mpd: MPD) throws(Transfer.Error) {
    let resolver = SegmentResolver()
    var budget = SegmentBudget()
    for path in selection.paths {
      do {
        try budget.spend(resolver.expansion(for: path, in: mpd, manifestURL: url), at: path)
      } catch let error as MPDError where [.tooManySegments, .urlsTooLarge].contains(error.kind) {
        throw failure("\(url.redactedForDisplay) expands too far to download (\(error))")
      } catch let error as MPDError where error.kind == .unsupported {
        throw failure("\(url.redactedForDisplay) cannot be downloaded (\(error))")
      } catch {
        throw failure("\(url.redactedForDisplay) is not a valid DASH manifest (\(error))")
      }
    }
  }
}
