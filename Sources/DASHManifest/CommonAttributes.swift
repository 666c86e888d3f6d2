/// The attributes AdaptationSet and Representation share (ISO/IEC 23009-1 §5.3.7); a
/// Representation's own value wins over its set's.
public struct CommonAttributes: Sendable, Equatable {
  /// `@mimeType`, such as `video/mp4` or `text/vtt`.
  public var mimeType: String?
  /// `@codecs` (RFC 6381), such as `avc1.42c00b`.
  public var codecs: String?
  /// `@width` in pixels.
  public var width: Int?
  /// `@height` in pixels.
  public var height: Int?
  /// `@frameRate`.
  public var frameRate: FrameRate?
  /// `@audioSamplingRate`, as written (one rate, or a minimum and a maximum).
  public var audioSamplingRate: String?

  /// Creates common attributes.
  public init(
    mimeType: String? = nil, codecs: String? = nil, width: Int? = nil, height: Int? = nil,
    frameRate: FrameRate? = nil, audioSamplingRate: String? = nil
  ) {
    self.mimeType = mimeType
    self.codecs = codecs
    self.width = width
    self.height = height
    self.frameRate = frameRate
    self.audioSamplingRate = audioSamplingRate
  }

  /// These attributes, each missing one taken from `parent`.
  public func inheriting(from parent: CommonAttributes) -> CommonAttributes {
    CommonAttributes(
      mimeType: mimeType ?? parent.mimeType, codecs: codecs ?? parent.codecs,
      width: width ?? parent.width, height: height ?? parent.height,
      frameRate: frameRate ?? parent.frameRate,
      audioSamplingRate: audioSamplingRate ?? parent.audioSamplingRate)
  }
}
