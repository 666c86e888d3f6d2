// The `offline` executable: everything lives in OfflineCLI so tests can drive it.
import Foundation
import OfflineCLI

let code = await OfflineTool.main(arguments: Array(CommandLine.arguments.dropFirst()))
exit(code)
