import FamilyEntitlements
import Foundation

/// The `entitlements` command: verbs, their usage, and the exit codes (0 success, 1 bad input or output, 2 usage).
enum CommandLineTool {
    static let usage = """
        usage: entitlements rebuild [FILE|-] [--as-of MS_OR_ISO8601] [--environment ENV] [--catalog FILE]
                                    [--format table|json] [--kind NAME] [--max-input-bytes N]
               entitlements explain [FILE|-] [same options]
               entitlements decode FILE|- [--kind NAME] [--max-input-bytes N]
               entitlements help

          rebuild  Recompute the customer's entitlements from a history file at an instant (default: now; with no
                   FILE, the shipped scenario of a family member after the purchaser was refunded, at its instant).
                   FILE: a history object {"transactions", "renewalInfos", "notifications"}, a JSON array of
                   decoded transactions, or an App Store Server API body (JWS decoded WITHOUT verification; a
                   nested string that does not decode contributes nothing and is reported as a warning).
                   ENV: Production (default), Sandbox, Xcode or LocalTesting.
          explain  The same inputs; prints the evidence for each product.

          decode   Decode a transaction, renewal info, AppTransaction or V2 notification (decoded JSON or a
                   compact JWS), or an App Store Server API body (Get Transaction History, Get All Subscription
                   Statuses, Get Transaction Info, Get Notification History, Extend a Subscription Renewal Date,
                   a notification body with signedPayload), and print the normalised values as JSON. Signatures
                   are NOT verified; a nested string that does not decode is reported with its path.

          --kind NAME  read FILE as that kind rather than recognising it from its members; NAME is what decode
                       prints as "kind": transaction, renewalInfo, appTransaction, notification,
                       transactionHistory, subscriptionStatuses, notificationRequestBody, transactionInfo,
                       notificationHistory, renewalExtension.

          FILE may be any path that reads as a stream (a FIFO, /dev/stdin, <(command)); - is standard input.
          --max-input-bytes N  refuse a FILE, catalog or standard input of more than N bytes (default 67108864,
                               64 MiB), rather than read without bound.
        exit status: 0 success, 1 bad input or output that cannot be written, 2 usage error
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let verb = arguments.first else {
            Output.usage(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch verb {
            case "rebuild":
                try RebuildCommand.run(rest, explain: false)
            case "explain":
                try RebuildCommand.run(rest, explain: true)
            case "decode":
                try DecodeCommand.run(rest)
            case "help", "--help", "-h":
                try Output.print(usage)
            default:
                throw UsageError("unknown verb \"\(verb)\"")
            }
            return 0
        } catch let error as UsageError {
            Output.error("entitlements: \(error.message)")
            Output.usage("\n\(usage)")
            return 2
        } catch let error as PayloadDecodingError {
            Output.error("entitlements: bad input: \(error)")
            return 1
        } catch let error as InputError {
            Output.error("entitlements: \(error.message)")
            return 1
        } catch let error as OutputError {
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
