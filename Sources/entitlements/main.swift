import FamilyEntitlements
import Foundation

// A reader that goes away (`entitlements rebuild | head -1`) is a failed write the tool handles (it ends quietly with
// status 0), rather than a signal that kills it mid-write.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
exit(await CommandLineTool.run(arguments))
