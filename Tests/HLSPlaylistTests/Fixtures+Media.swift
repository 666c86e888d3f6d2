extension Fixtures {
  /// A live-to-VOD recording with an ad break: program dates, discontinuities, cue tags and
  /// other tags the parser does not model.
  static let discontinuityAndDates = """
    #EXTM3U
    #EXT-X-VERSION:3
    #EXT-X-TARGETDURATION:7
    #EXT-X-MEDIA-SEQUENCE:120
    #EXT-X-DISCONTINUITY-SEQUENCE:3
    #EXT-X-START:TIME-OFFSET=12.5,PRECISE=YES
    ## a comment the writer drops
    #EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00.000Z
    #EXTINF:6.000,Opening
    main/120.ts
    #EXTINF:6.000,
    main/121.ts
    #EXT-X-CUE-OUT:DURATION=12
    #EXT-X-DISCONTINUITY
    #EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:12.000Z
    #EXTINF:6.000,Ad, part 1
    https://ads.example.com/a/1.ts
    #EXTINF:6.000,
    #EXT-X-GAP
    https://ads.example.com/a/2.ts
    #EXT-X-CUE-IN
    #EXT-X-DISCONTINUITY
    #EXTINF:6.000,
    main/122.ts

    #EXTINF:0.46667,
    main/123.ts
    #EXT-X-DATERANGE:ID="end",START-DATE="2024-05-01T10:00:30.466Z"
    #EXT-X-ENDLIST
    """

  /// A live event that is still growing: no `EXT-X-ENDLIST`.
  static let eventLive = """
    #EXTM3U
    #EXT-X-TARGETDURATION:2
    #EXT-X-PLAYLIST-TYPE:EVENT
    #EXT-X-MEDIA-SEQUENCE:0
    #EXTINF:2.002,
    live/0.ts
    #EXTINF:2.002,
    live/1.ts
    #EXTINF:1.001,
    live/2.ts
    """

  /// An I-frame playlist: byte ranges of transport stream files.
  static let iFramesOnly = """
    #EXTM3U
    #EXT-X-VERSION:4
    #EXT-X-TARGETDURATION:10
    #EXT-X-I-FRAMES-ONLY
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXTINF:4.004,
    #EXT-X-BYTERANGE:9400@376
    fileSequence0.ts
    #EXTINF:4.004,
    #EXT-X-BYTERANGE:7144@1062352
    fileSequence0.ts
    #EXTINF:1.668,
    #EXT-X-BYTERANGE:10152@376
    fileSequence1.ts
    #EXTINF:3.003,
    #EXT-X-BYTERANGE:8272
    fileSequence1.ts
    #EXT-X-ENDLIST
    """

  /// A WebVTT subtitles playlist.
  static let subtitlesWebVTT = """
    #EXTM3U
    #EXT-X-TARGETDURATION:30
    #EXT-X-VERSION:3
    #EXT-X-MEDIA-SEQUENCE:0
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXTINF:30,
    en/fileSequence0.webvtt
    #EXTINF:30,
    en/fileSequence1.webvtt
    #EXTINF:12.3456789,
    en/fileSequence2.webvtt
    #EXT-X-ENDLIST
    """

  /// A media playlist saved on Windows: a byte order mark and CRLF line endings.
  static let crlfWithByteOrderMark =
    "\u{FEFF}#EXTM3U\r\n#EXT-X-TARGETDURATION:10\r\n#EXTINF:9.97667,Première\r\n"
    + "segment 1.ts\r\n#EXTINF:10.0,\r\nsegment2.ts\r\n\r\n#EXT-X-ENDLIST\r\n"
}
