#if canImport(CAVFormat)
  import CAVFormat

  extension Remuxer {
    /// A demuxed stream as far as a file's track is concerned: a later part must give the
    /// same, stream by stream, to be written into the tracks made from the first.
    struct StreamSignature: Equatable {
      var kind: ExportReport.Track.Kind?
      var codecID: AVCodecID
      var extradata: [UInt8]

      init(_ stream: UnsafeMutablePointer<AVStream>) {
        kind = Remuxer.kind(of: stream)
        codecID = stream.pointee.codecpar.pointee.codec_id
        extradata = Remuxer.extradata(stream.pointee.codecpar)
      }

      var codec: String { String(cString: avcodec_get_name(codecID)) }
    }

    /// How much of a part libav reads ahead to learn its streams at first, in bytes: half its
    /// default of 5 MB. The read-ahead is held in memory, so this is about 4 MiB off the
    /// export's peak (64.9 MiB for 256 MiB of 640x360 H.264 at 11 MB/s, 60.0 MiB with it).
    /// An offline copy's segments start with what a decoder needs, so it is enough there;
    /// where it is not (``InputContainer/knowsEveryStream``), the part is opened again with
    /// libav's default.
    static let shortProbeBytes = "2500000"

    /// Opens one part of the source (its manifest, or one Period's MPD) and reads ahead to
    /// learn its streams: a short read-ahead first, libav's default when that left a stream
    /// unknown.
    static func openPart(_ path: String, source: ExportInput, cancellation: CancellationFlag)
      throws(ExportError) -> InputContainer
    {
      let options = source.kind == .hls ? ["allowed_extensions": "ALL"] : [:]
      do {
        var short = options
        short["probesize"] = shortProbeBytes
        let input = try InputContainer(path: path, options: short, cancellation: cancellation)
        try input.findStreamInfo()
        if input.knowsEveryStream { return input }
      } catch .cancelled {
        throw .cancelled
      } catch {
        // Opened again below with libav's default read-ahead, which says what is wrong.
      }
      let input = try InputContainer(path: path, options: options, cancellation: cancellation)
      try input.findStreamInfo()
      return input
    }

    /// Checks that part `number` (counting from zero; a DASH Period) has the streams of the
    /// first part, with the same codecs, and discards the streams not chosen. A file's track
    /// has one codec header: where an H.264 or HEVC stream's differs from the first part's,
    /// the returned bytes (by stream index) go before each of its keyframes
    /// (``ParameterSets``); any other codec encoded otherwise cannot follow on and is refused.
    static func checkPart(
      _ input: InputContainer, number: Int, matches first: [StreamSignature],
      source: ExportInput
    ) throws(ExportError) -> [Int: [UInt8]] {
      let streams = input.streams
      let signatures = streams.map(StreamSignature.init)
      func listed(_ list: [StreamSignature]) -> String {
        list.filter { $0.kind != nil }.map(\.codec).joined(separator: ", ")
      }
      guard signatures.map(\.kind) == first.map(\.kind),
        signatures.map(\.codecID) == first.map(\.codecID)
      else {
        throw .unsupportedSource(
          path: source.manifest.path,
          reason: "Period \(number + 1) has other tracks (\(listed(signatures))) than Period 1 "
            + "(\(listed(first))), and one file has one set of tracks")
      }
      var prefixes: [Int: [UInt8]] = [:]
      for index in signatures.indices
      where signatures[index].kind != nil && signatures[index].extradata != first[index].extradata {
        let codec = signatures[index].codec
        guard let own = ParameterSets.units(codec: codec, extradata: signatures[index].extradata),
          let firsts = ParameterSets.units(codec: codec, extradata: first[index].extradata),
          own.lengthSize == firsts.lengthSize
        else {
          throw .unsupportedSource(
            path: source.manifest.path,
            reason: "the \(codec) track of Period \(number + 1) is encoded with other settings "
              + "(codec header) than in Period 1, and one file's track has one header")
        }
        prefixes[index] = ParameterSets.prefix(own.units, lengthSize: own.lengthSize)
      }
      for stream in streams where kind(of: stream) == nil { stream.pointee.discard = AVDISCARD_ALL }
      return prefixes
    }
  }
#endif
