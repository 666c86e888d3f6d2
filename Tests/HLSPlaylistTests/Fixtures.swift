/// Realistic playlists the tests parse, write and parse again. Each is also a file of the
/// fuzzer's seed corpus, `Fuzz/corpus/playlist/<name>.m3u8`.
enum Fixtures {
  /// Every fixture, by name.
  static let all: [(name: String, text: String)] = [
    ("apple-master", appleMaster),
    ("master-session-key", masterWithSessionKey),
    ("fmp4-single-file", fmp4SingleFile),
    ("aes128-rotation", aes128Rotation),
    ("fairplay", fairPlay),
    ("multi-drm", multiDRM),
    ("discontinuity-dates", discontinuityAndDates),
    ("event-live", eventLive),
    ("iframes-only", iFramesOnly),
    ("subtitles-vtt", subtitlesWebVTT),
    ("crlf-bom", crlfWithByteOrderMark),
    ("variables-master", variablesMaster),
    ("variables-media", variablesMedia),
  ]

  /// An Apple-style master playlist: AAC and Dolby audio groups, subtitles, closed
  /// captions, several variants and I-frame variants.
  static let appleMaster = """
    #EXTM3U
    #EXT-X-VERSION:6
    #EXT-X-INDEPENDENT-SEGMENTS
    #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Big Buck Bunny"
    # Audio renditions
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="English",AUTOSELECT=YES,DEFAULT=YES,CHANNELS="2",URI="audio/aac/en/prog.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="fr",NAME="Français",AUTOSELECT=YES,DEFAULT=NO,CHANNELS="2",URI="audio/aac/fr/prog.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="atmos",LANGUAGE="en",NAME="English (Atmos)",AUTOSELECT=YES,DEFAULT=YES,CHANNELS="16/JOC",URI="audio/atmos/en/prog.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="en",NAME="English",AUTOSELECT=YES,DEFAULT=YES,FORCED=NO,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog",URI="subs/en/prog.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="fr",ASSOC-LANGUAGE="fr-CA",NAME="Français (forced)",AUTOSELECT=YES,FORCED=YES,URI="subs/fr-forced/prog.m3u8"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",LANGUAGE="en",NAME="English CC",INSTREAM-ID="CC1",AUTOSELECT=YES

    #EXT-X-STREAM-INF:BANDWIDTH=2483789,AVERAGE-BANDWIDTH=2168183,CODECS="avc1.640020,mp4a.40.2",RESOLUTION=960x540,FRAME-RATE=60.000,AUDIO="aac",SUBTITLES="subs",CLOSED-CAPTIONS="cc"
    v540/prog.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=6214307,AVERAGE-BANDWIDTH=5468350,CODECS="avc1.64002a,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=59.940,AUDIO="aac",SUBTITLES="subs",CLOSED-CAPTIONS="cc",HDCP-LEVEL=TYPE-0
    v1080/prog.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=14085823,AVERAGE-BANDWIDTH=12178390,CODECS="hvc1.2.4.L150.B0,ec-3",RESOLUTION=3840x2160,FRAME-RATE=23.976,VIDEO-RANGE=PQ,AUDIO="atmos",SUBTITLES="subs",CLOSED-CAPTIONS=NONE,HDCP-LEVEL=TYPE-1
    https://cdn.example.com/hevc/v2160/prog.m3u8
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=186522,AVERAGE-BANDWIDTH=180000,CODECS="avc1.640020",RESOLUTION=960x540,URI="v540/iframe_index.m3u8"
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=482755,CODECS="avc1.64002a",RESOLUTION=1920x1080,VIDEO-RANGE=SDR,URI="v1080/iframe_index.m3u8"
    """

  /// A small master playlist with a session key and a variant without optional attributes.
  static let masterWithSessionKey = """
    #EXTM3U
    #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key65",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
    #EXT-X-STREAM-INF:BANDWIDTH=800000
    low.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=1600000,RESOLUTION=1280x720
    high.m3u8
    """

  /// An fMP4 presentation in one file: the init section and every segment are byte ranges
  /// of `main.mp4`, most with implicit offsets.
  static let fmp4SingleFile = """
    #EXTM3U
    #EXT-X-TARGETDURATION:6
    #EXT-X-VERSION:7
    #EXT-X-MEDIA-SEQUENCE:1
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXT-X-INDEPENDENT-SEGMENTS
    #EXT-X-MAP:URI="main.mp4",BYTERANGE="720@0"
    #EXTINF:6.006,
    #EXT-X-BYTERANGE:1043280@720
    main.mp4
    #EXTINF:6.006,
    #EXT-X-BYTERANGE:989012
    main.mp4
    #EXTINF:6.006,
    #EXT-X-BYTERANGE:1002345
    main.mp4
    #EXTINF:2.5025,
    #EXT-X-BYTERANGE:412001
    main.mp4
    #EXT-X-ENDLIST
    """

  /// AES-128 without an IV, then a rotated key with an IV, then clear segments.
  static let aes128Rotation = """
    #EXTM3U
    #EXT-X-VERSION:3
    #EXT-X-TARGETDURATION:10
    #EXT-X-MEDIA-SEQUENCE:7794
    #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/key?id=1"
    #EXTINF:9.009,
    segment7794.ts
    #EXTINF:9.009,
    segment7795.ts
    #EXT-X-KEY:METHOD=AES-128,URI="key2.bin",IV=0x0123456789abcdef0123456789ABCDEF
    #EXTINF:9.009,
    segment7796.ts
    #EXTINF:3.003,
    segment7797.ts
    #EXT-X-KEY:METHOD=NONE
    #EXTINF:10,
    segment7798.ts
    #EXT-X-ENDLIST
    """

  /// FairPlay Streaming: SAMPLE-AES with an `skd://` key URI.
  static let fairPlay = """
    #EXTM3U
    #EXT-X-VERSION:5
    #EXT-X-TARGETDURATION:4
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://twelve-byte-asset-id",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
    #EXT-X-MAP:URI="init.mp4"
    #EXTINF:4.0,
    seg-1.m4s
    #EXTINF:4.0,
    seg-2.m4s
    #EXTINF:1.25,
    seg-3.m4s
    #EXT-X-ENDLIST
    """

  /// Several key formats in effect at once, then one of them rotated.
  static let multiDRM = """
    #EXTM3U
    #EXT-X-VERSION:6
    #EXT-X-TARGETDURATION:6
    #EXT-X-MAP:URI="init-cenc.mp4"
    #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="skd://asset-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
    #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="data:text/plain;base64,AAAAW3Bzc2g=",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1"
    #EXTINF:6,
    cenc-1.m4s
    #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="skd://asset-2",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
    #EXTINF:6,
    cenc-2.m4s
    #EXT-X-ENDLIST
    """
}
