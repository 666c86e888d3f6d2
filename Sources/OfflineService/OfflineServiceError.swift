import Foundation

/// What went wrong in the service, as a sentence a user can act on.
public struct OfflineServiceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kinds of failure.
  public enum Kind: Sendable, Equatable {
    /// The address could not be bound (in use, or not an address of this machine).
    case cannotListen(String)
    /// A listener that other machines can reach was asked for without a token.
    case tokenRequired(String)
    /// The token is too short or holds characters a header or cookie cannot carry.
    case invalidToken
  }

  /// What happened.
  public var kind: Kind

  /// An error of `kind`.
  public init(_ kind: Kind) { self.kind = kind }

  /// The sentence.
  public var description: String {
    switch kind {
    case .cannotListen(let address):
      "Cannot listen on \(address): the port is in use or the address is not one of this"
        + " machine's."
    case .tokenRequired(let address):
      "Listening on \(address) lets other machines connect: a token is required."
    case .invalidToken:
      "The token must be 16 to 128 letters, digits, '-' or '_'."
    }
  }
}
