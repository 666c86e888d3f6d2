import HLSPlaylist

extension Fixtures {
  /// A multivariant playlist that builds its URIs, group names and codecs from `EXT-X-DEFINE`
  /// variables (RFC 8216bis §4.3, §4.4.2.3), including in a tag the parser does not model.
  static let variablesMaster = """
    #EXTM3U
    #EXT-X-VERSION:11
    #EXT-X-DEFINE:NAME="cdn",VALUE="https://cdn.example.com/show"
    #EXT-X-DEFINE:NAME="audio-group",VALUE="aac"
    #EXT-X-DEFINE:NAME="codecs_avc",VALUE="avc1.64001f"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="{$audio-group}",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="{$cdn}/audio/en.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="{$codecs_avc},mp4a.40.2",RESOLUTION=1280x720,AUDIO="{$audio-group}"
    {$cdn}/video/720p.m3u8
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,CODECS="{$codecs_avc}",URI="{$cdn}/video/720p-iframes.m3u8"
    #EXT-X-SESSION-DATA:DATA-ID="com.example.title",URI="{$cdn}/title.json"
    """

  /// A media playlist whose segment, key and init-section URIs, byte range and IV come from
  /// variables, one of them used twice in one line.
  static let variablesMedia = """
    #EXTM3U
    #EXT-X-VERSION:11
    #EXT-X-TARGETDURATION:6
    #EXT-X-DEFINE:NAME="base",VALUE="https://media.example.com/vod/1234"
    #EXT-X-DEFINE:NAME="iv",VALUE="0123456789ABCDEF0123456789ABCDEF"
    #EXT-X-DEFINE:NAME="range",VALUE="720@0"
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXT-X-MAP:URI="{$base}/init.mp4",BYTERANGE="{$range}"
    #EXT-X-KEY:METHOD=AES-128,URI="{$base}/key?kid=7",IV=0x{$iv}
    #EXTINF:6.0,
    {$base}/seg0.m4s
    #EXTINF:6.0,
    {$base}/{$base}/seg1.m4s
    #EXT-X-ENDLIST
    """

  /// A media playlist that takes its CDN from the multivariant playlist (`IMPORT`) and its
  /// token from its own URL (`QUERYPARAM`); parse it with `Fixtures.context`.
  static let variablesImported = """
    #EXTM3U
    #EXT-X-VERSION:11
    #EXT-X-TARGETDURATION:4
    #EXT-X-DEFINE:IMPORT="cdn"
    #EXT-X-DEFINE:QUERYPARAM="token"
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXT-X-KEY:METHOD=AES-128,URI="{$cdn}/key.bin?token={$token}"
    #EXTINF:4.0,
    {$cdn}/seg0.ts?token={$token}
    #EXTINF:4.0,
    {$cdn}/seg1.ts?token={$token}
    #EXT-X-ENDLIST
    """

  /// A multivariant playlist that hands the token of its own URL to its variants; parse it
  /// with `Fixtures.context`.
  static let variablesQueryMaster = """
    #EXTM3U
    #EXT-X-DEFINE:QUERYPARAM="token"
    #EXT-X-DEFINE:NAME="cdn",VALUE="https://cdn.example.com/show"
    #EXT-X-STREAM-INF:BANDWIDTH=800000
    {$cdn}/low.m3u8?token={$token}
    """
}
