import FamilyEntitlements
import Foundation

/// The `entitlements` command: verbs, their usage, and the exit codes (0 success, 1 bad input, 2 usage error).
enum CommandLineTool {
    static let usage = """
        usage: entitlements decode FILE|-
               entitlements help

          decode   Decode a transaction, renewal info, AppTransaction or V2 notification (decoded JSON or a
                   compact JWS), or an App Store Server API body (Get Transaction History, Get All Subscription
                   Statuses, a notification body with signedPayload), and print the normalised values as JSON.
                   Signatures are NOT verified.
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let verb = arguments.first else {
            Output.error(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch verb {
            case "decode":
                try DecodeCommand.run(rest)
            case "help", "--help", "-h":
                Output.print(usage)
            default:
                throw UsageError("unknown verb \"\(verb)\"")
            }
            return 0
        } catch let error as UsageError {
            Output.error("entitlements: \(error.message)\n\n\(usage)")
            return 2
        } catch let error as PayloadDecodingError {
            Output.error("entitlements: bad input: \(error)")
            return 1
        } catch let error as InputError {
            Output.error("entitlements: \(error.message)")
            return 1
        } catch {
            Output.error("entitlements: \(error)")
            return 1
        }
    }
}

struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

struct InputError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

enum Output {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Reads a file, or standard input for `-`.
    static func read(_ path: String) throws -> Data {
        if path == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw InputError("cannot read \(path): \(error.localizedDescription)")
        }
    }
}
