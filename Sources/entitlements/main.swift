import FamilyEntitlements
import Foundation

// A reader that goes away (`entitlements rebuild | head -1`) is an output error the tool reports and exits 1 on,
// rather than a signal that kills it mid-write.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineTool.run(arguments))
