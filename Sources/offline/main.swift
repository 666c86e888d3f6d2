// The `offline` executable: everything lives in OfflineCLI so tests can drive it.
import CSystem
import Foundation
import OfflineCLI

// glibc hands the top of a thread's heap back to the kernel (`madvise(MADV_DONTNEED)`)
// whenever it grows past a threshold that follows the largest block freed, and the next
// allocations fault those pages in again, zeroed: a queue of 1000 small files made about a
// thousand such calls and 13,000 page faults (3,700 with this setting). The process keeps up
// to 16 MiB of freed heap per arena instead. (Also serving blocks under 4 MiB from the heap
// added 3-6 MiB to a 1 GiB download's peak RSS and saved nothing more, so the mapping
// threshold stays glibc's.) Set here, not in the library: the allocator is the application's.
ok_keep_freed_heap(16 << 20)

// Secrets among the arguments are blanked from this process's argv once parsed (`ps`).
let code = await OfflineTool.main(
  arguments: Array(CommandLine.arguments.dropFirst()), blanksProcessArguments: true)
exit(code)
