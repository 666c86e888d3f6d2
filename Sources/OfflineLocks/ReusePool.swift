/// Things a process keeps for reuse instead of freeing and making again (buffers whose pages
/// are already mapped): at most ``capacity`` of them, behind a ``Locked``.
///
/// ```swift
/// let buffers = ReusePool<Buffer>(capacity: 16)
/// let buffer = buffers.take() ?? Buffer()
/// // … use it, empty it …
/// if !buffers.give(buffer) { /* full: let it go */ }
/// ```
///
/// Callable from any thread. Whoever gives a thing no longer touches it.
public final class ReusePool<Element: Sendable>: Sendable {
  /// The most things kept at once.
  public let capacity: Int
  private let kept: Locked<[Element]>

  /// An empty pool that keeps at most `capacity` things.
  public init(capacity: Int) {
    self.capacity = capacity
    kept = Locked([])
  }

  /// A kept thing, the last one given; nil when none is kept.
  public func take() -> Element? {
    kept.withLock { $0.popLast() }
  }

  /// Keeps `element` when there is room. Returns false when the pool is full: the caller
  /// frees it.
  @discardableResult
  public func give(_ element: Element) -> Bool {
    kept.withLock { kept in
      guard kept.count < capacity else { return false }
      kept.append(element)
      return true
    }
  }
}
