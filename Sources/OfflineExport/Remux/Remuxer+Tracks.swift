#if canImport(CAVFormat)
  import CAVFormat

  extension Remuxer {
    /// Chooses every video, audio and subtitle stream of the offline copy (the others are
    /// discarded), adds one output stream for each, with its language and default flag, and
    /// makes `aac_adtstoasc` filters for AAC carried in ADTS.
    static func planTracks(
      input: InputContainer, output: OutputContainer, source: ExportInput,
      format: ExportFormat
    ) throws(ExportError) -> (plans: [TrackPlan], filters: [Int: BitstreamFilter]) {
      var plans: [TrackPlan] = []
      var filters: [Int: BitstreamFilter] = [:]
      let streams = input.streams
      let fromRenditions = renditionFacts(of: streams, renditions: source.renditions)
      let defaults = defaultStreams(streams, renditionDefaults: fromRenditions.defaults)
      let order: [ExportReport.Track.Kind] = [.video, .audio, .subtitle]
      for stream in streams where kind(of: stream) == nil { stream.pointee.discard = AVDISCARD_ALL }
      // Video first, then audio, then subtitles, each in the offline copy's order.
      let chosen = streams.indices.compactMap { index in
        kind(of: streams[index]).map { (index, $0) }
      }.sorted { (order.firstIndex(of: $0.1)!, $0.0) < (order.firstIndex(of: $1.1)!, $1.0) }
      for (index, kind) in chosen {
        let stream = streams[index]
        let parameters = stream.pointee.codecpar!
        let codecID = parameters.pointee.codec_id
        let codec = String(cString: avcodec_get_name(codecID))
        guard codecID != AV_CODEC_ID_NONE, output.accepts(codecID) else {
          throw .unsupportedCodec(codec: codec, container: format.rawValue)
        }
        var copied = UnsafePointer(parameters)
        if codecID == AV_CODEC_ID_AAC, parameters.pointee.extradata_size == 0 {
          // MPEG-TS carries AAC in ADTS frames; MP4 and Matroska want raw frames and the
          // AudioSpecificConfig in the header.
          let filter = try BitstreamFilter(
            name: "aac_adtstoasc", parameters: parameters, timeBase: stream.pointee.time_base)
          filters[index] = filter
          copied = filter.outputParameters
        }
        let written = try output.addStream(copying: copied, timeBase: stream.pointee.time_base)
        let language = (metadata(stream, "language") ?? fromRenditions.languages[index]).map {
          LanguageCode.iso639_2($0)
        }
        if let language { av_dict_set(&written.pointee.metadata, "language", language, 0) }
        written.pointee.disposition = stream.pointee.disposition & ~AV_DISPOSITION_DEFAULT
        let isDefault = defaults.contains(index)
        if isDefault { written.pointee.disposition |= AV_DISPOSITION_DEFAULT }
        plans.append(
          TrackPlan(
            inputIndex: index, outputIndex: Int(written.pointee.index), kind: kind, codec: codec,
            language: language, isDefault: isDefault,
            framing: PayloadFraming(codec: codec, extradata: extradata(parameters)),
            inputTimeBase: stream.pointee.time_base))
      }
      guard !plans.isEmpty else { throw .notAStream(path: source.manifest.path) }
      return (plans, filters)
    }

    /// Video, audio or subtitles; nil for anything else (data, attached pictures).
    static func kind(of stream: UnsafeMutablePointer<AVStream>) -> ExportReport.Track.Kind? {
      if stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 { return nil }
      switch stream.pointee.codecpar.pointee.codec_type {
      case AVMEDIA_TYPE_VIDEO: return .video
      case AVMEDIA_TYPE_AUDIO: return .audio
      case AVMEDIA_TYPE_SUBTITLE: return .subtitle
      default: return nil
      }
    }

    /// A stream's metadata entry, when set.
    static func metadata(_ stream: UnsafeMutablePointer<AVStream>, _ key: String) -> String? {
      guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0),
        let value = entry.pointee.value
      else { return nil }
      let text = String(cString: value)
      return text.isEmpty ? nil : text
    }

    /// A codec header's bytes.
    static func extradata(_ parameters: UnsafePointer<AVCodecParameters>) -> [UInt8] {
      guard let bytes = parameters.pointee.extradata, parameters.pointee.extradata_size > 0
      else { return [] }
      return Array(UnsafeBufferPointer(start: bytes, count: Int(parameters.pointee.extradata_size)))
    }

    /// The streams marked default: those the demuxer or the playlist's renditions mark, and
    /// of a kind none is marked in, the first stream of that kind.
    private static func defaultStreams(
      _ streams: [UnsafeMutablePointer<AVStream>], renditionDefaults: Set<Int>
    ) -> Set<Int> {
      var defaults = renditionDefaults.union(
        streams.indices.filter { streams[$0].pointee.disposition & AV_DISPOSITION_DEFAULT != 0 })
      for kind in [ExportReport.Track.Kind.video, .audio, .subtitle] {
        let ofKind = streams.indices.filter { self.kind(of: streams[$0]) == kind }
        if let first = ofKind.first, defaults.isDisjoint(with: ofKind) { defaults.insert(first) }
      }
      return defaults
    }

    /// What the playlist's renditions say of the streams the demuxer made from them: the n-th
    /// audio (subtitle) stream is the n-th audio (subtitle) rendition, when their numbers agree.
    private static func renditionFacts(
      of streams: [UnsafeMutablePointer<AVStream>], renditions: [ExportInput.Rendition]
    ) -> (languages: [Int: String], defaults: Set<Int>) {
      var languages: [Int: String] = [:]
      var defaults: Set<Int> = []
      for (kind, type) in [(ExportReport.Track.Kind.audio, "AUDIO"), (.subtitle, "SUBTITLES")] {
        let indices = streams.indices.filter { self.kind(of: streams[$0]) == kind }
        let matching = renditions.filter { $0.type.rawValue == type }
        guard indices.count == matching.count else { continue }
        for (index, rendition) in zip(indices, matching) {
          if let language = rendition.language { languages[index] = language }
          if rendition.isDefault { defaults.insert(index) }
        }
      }
      return (languages, defaults)
    }
  }
#endif
