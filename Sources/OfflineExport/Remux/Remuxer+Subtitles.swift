#if canImport(CAVFormat)
  import CAVFormat

  extension Remuxer {
    /// The writer of the one subtitle track made from the playlist's WebVTT renditions,
    /// which libavformat 5.1's HLS demuxer skips: the default rendition, else the first;
    /// nil when there is none or it has no cues. The others are named in the log.
    static func subtitleWriter(
      source: ExportInput, output: OutputContainer, format: ExportFormat,
      log: (ExportLogMessage) -> Void
    ) throws(ExportError) -> SubtitleCueWriter? {
      let renditions = source.renditions.filter { $0.type == .subtitles && $0.playlist != nil }
      guard let chosen = renditions.first(where: \.isDefault) ?? renditions.first,
        let playlist = chosen.playlist
      else { return nil }
      if renditions.count > 1 {
        log(
          ExportLogMessage(
            level: .warning,
            text: "The playlist has \(renditions.count) subtitle renditions; the file has one "
              + "subtitle track, \(chosen.language ?? "the first")."))
      }
      let timeline = try WebVTTRendition.timeline(playlist: playlist)
      guard timeline.count > 0 else { return nil }
      return try SubtitleCueWriter(
        timeline: timeline, rendition: chosen, output: output, format: format)
    }
  }
#endif
