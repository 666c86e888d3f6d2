import Foundation

/// The service's access token: made up when the user gives none, checked when given.
public enum ServiceToken {
  /// 32 random characters from letters and digits (about 190 bits).
  public static func generate() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    return String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt64(62)))] })
  }

  /// Whether `token` can be used: 16 to 128 letters, digits, `-` or `_` (it travels in a
  /// header, a cookie and a URL).
  public static func isValid(_ token: String) -> Bool {
    (16...128).contains(token.utf8.count)
      && token.unicodeScalars.allSatisfy {
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
      }
  }
}
