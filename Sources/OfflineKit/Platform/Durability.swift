/// Makes written bytes survive a power cut: the one seam for every flush to the device.
///
/// The calls are the platform's (`Durability+Linux.swift`, `Durability+Darwin.swift`): on
/// Linux `fsync(2)` and `syncfs(2)`; on Apple platforms `fsync` does not flush the drive's
/// cache, so `F_FULLFSYNC` is used.
enum Durability {}
