import FamilyEntitlements
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineTool.run(arguments))
