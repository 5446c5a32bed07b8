import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation

/// The inputs every decode figure reads, generated from the family history.
struct DecodeInputs {
    var typicalTransactions: [Data]
    var fullTransactions: [Data]
    var renewalInfos: [Data]
    var notifications: [Data]
    var historyPages: [Data]
    static let transactionsPerPage = 20

    init(count: Int, pages: Int) {
        let history = FamilyHistory.transactions(count: max(count, pages * Self.transactionsPerPage))
        let sample = Array(history.prefix(count))
        var random = SeededRandom(seed: 42)
        typicalTransactions = sample.map { AppleJSON.transaction($0) }
        fullTransactions = sample.map { AppleJSON.transaction($0, full: true) }
        renewalInfos = sample.enumerated().map { AppleJSON.renewalInfo(for: $1, index: $0) }
        notifications = sample.enumerated().map { index, transaction in
            AppleJSON.notification(
                transactionJWS: AppleJSON.jws(payload: AppleJSON.transaction(transaction), random: &random),
                renewalJWS: AppleJSON.jws(
                    payload: AppleJSON.renewalInfo(for: transaction, index: index), random: &random),
                index: index)
        }
        historyPages = (0..<pages).map { page in
            let slice = history[(page * Self.transactionsPerPage)..<((page + 1) * Self.transactionsPerPage)]
            return AppleJSON.historyPage(
                slice.map { AppleJSON.jws(payload: AppleJSON.transaction($0), random: &random) })
        }
    }
}

/// The floor: a scan that reads every byte, eight at a time, and counts the quotes, building nothing.
///
/// Any decoder reads every byte at least once, so none runs faster than this loop.
@inline(never)
func byteScan(_ data: Data) -> Int {
    data.withUnsafeBytes { bytes in
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let quotes = 0x2222_2222_2222_2222 as UInt64
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ quotes
            count += (~(((word & low) &+ low) | word | low)).nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\"") { count += 1 }
            index += 1
        }
        return count
    }
}

/// One decode figure for the summary: the fast path's rate against JSONDecoder's.
struct DecodeSummary {
    var name: String
    var ratio: Double
    var megabytesPerSecond: Double
}

/// Decode figures: the fast path against JSONDecoder into Codable structs and against the byte scan.
enum DecodeBenchmark {
    static func run(_ settings: BenchmarkSettings) -> [DecodeSummary] {
        let inputs = DecodeInputs(count: settings.isQuick ? 200 : 2_000, pages: settings.isQuick ? 10 : 100)
        let decoder = Baseline.decoder()

        var summaries: [DecodeSummary] = []
        summaries.append(
            payload(
                "transaction, typical", inputs.typicalTransactions, settings,
                fast: { try TransactionPayload(jsonData: $0) },
                reference: { try TransactionPayload(referenceJSONData: $0) },
                baseline: { try decoder.decode(BaselineTransaction.self, from: $0) }))
        summaries.append(
            payload(
                "transaction, every field (Advanced Commerce)", inputs.fullTransactions, settings,
                fast: { try TransactionPayload(jsonData: $0) },
                reference: { try TransactionPayload(referenceJSONData: $0) },
                baseline: { try decoder.decode(BaselineTransaction.self, from: $0) }))
        summaries.append(
            payload(
                "renewal info", inputs.renewalInfos, settings,
                fast: { try RenewalInfoPayload(jsonData: $0) },
                reference: { try RenewalInfoPayload(referenceJSONData: $0) },
                baseline: { try decoder.decode(BaselineRenewalInfo.self, from: $0) }))
        summaries.append(
            payload(
                "V2 notification (JWS strings inside)", inputs.notifications, settings,
                fast: { try NotificationPayload(jsonData: $0) },
                reference: { try NotificationPayload(referenceJSONData: $0) },
                baseline: { try decoder.decode(BaselineNotification.self, from: $0) }))
        summaries.append(notificationsAsReceived(inputs.notifications, settings, decoder: decoder))
        summaries.append(historyPages(inputs.historyPages, settings, decoder: decoder))
        return summaries
    }

    /// Prints the fast, baseline, reference and floor lines of one payload kind.
    private static func payload<Fast, Reference, Base>(
        _ name: String, _ inputs: [Data], _ settings: BenchmarkSettings,
        fast: @escaping (Data) throws -> Fast, reference: @escaping (Data) throws -> Reference,
        baseline: @escaping (Data) throws -> Base
    ) -> DecodeSummary {
        let bytes = inputs.reduce(0) { $0 + $1.count }
        let average = bytes / max(inputs.count, 1)
        check(name, inputs, fast, baseline)
        let (rates, ratios) = measureSideBySide(
            units: inputs.count, bytes: bytes, settings, baseline: 1,
            [
                { for input in inputs { keep(decodeOrStop(fast, input)) } },
                { for input in inputs { keep(decodeOrStop(baseline, input)) } },
                { for input in inputs { keep(decodeOrStop(reference, input)) } },
                { for input in inputs { keep(byteScan(input)) } },
            ])
        let (fastRate, baselineRate, referenceRate, floorRate) = (rates[0], rates[1], rates[2], rates[3])
        let figure = "decode \(name), \(average) B"
        let ratio = ratios[0]
        Report.line(
            "\(figure): fast path", rate(fastRate),
            "\(Report.ratio(ratio)) JSONDecoder, \(Report.ratio(ratios[0] / ratios[3])) of the byte scan, "
                + "\(Report.decimal(fastRate.secondsPerUnit * 1e6, digits: 2)) us each")
        Report.line(
            "\(figure): JSONDecoder into Codable structs", rate(baselineRate),
            "baseline, \(Report.decimal(baselineRate.secondsPerUnit * 1e6, digits: 1)) us each")
        Report.line(
            "\(figure): reference path (JSONDecoder, init(from:))", rate(referenceRate),
            "\(Report.ratio(ratios[2])) JSONDecoder, the fast path \(Report.ratio(ratios[0] / ratios[2])) this")
        Report.line(
            "\(figure): byte scan (floor)", "\(Report.count(floorRate.megabytesPerSecond)) MB/s",
            "\(Report.ratio(ratios[3])) JSONDecoder")
        return DecodeSummary(name: name, ratio: ratio, megabytesPerSecond: fastRate.megabytesPerSecond)
    }

    /// How many notifications `notificationsAsReceived` cycles through: few enough that each one's bytes are in the
    /// cache when it is decoded, as the bytes a service has just received and taken out of `signedPayload` are.
    static let notificationsReceived = 16

    /// A notification as a service handles it: decode it, then take both nested strings as a verifier is handed them
    /// (`readNestedStrings`), against the same work on `JSONDecoder`'s structs.
    private static func notificationsAsReceived(
        _ notifications: [Data], _ settings: BenchmarkSettings, decoder: JSONDecoder
    ) -> DecodeSummary {
        let inputs = Array(notifications.prefix(notificationsReceived))
        let bytes = inputs.reduce(0) { $0 + $1.count }
        let (rates, ratios) = measureSideBySide(
            units: inputs.count, bytes: bytes, settings, baseline: 1,
            [
                {
                    for input in inputs {
                        keep(readNestedStrings(decodeOrStop({ try NotificationPayload(jsonData: $0) }, input)))
                    }
                },
                {
                    for input in inputs {
                        let baseline = decodeOrStop({ try decoder.decode(BaselineNotification.self, from: $0) }, input)
                        keep(readNestedStrings(baseline.data?.signedTransactionInfo, baseline.data?.signedRenewalInfo))
                    }
                },
            ])
        let (fastRate, baselineRate) = (rates[0], rates[1])
        let figure = "decode V2 notification and read both JWS, as received, \(bytes / inputs.count) B"
        Report.line(
            "\(figure): fast path", rate(fastRate),
            "\(Report.ratio(ratios[0])) JSONDecoder, \(Report.decimal(fastRate.secondsPerUnit * 1e6, digits: 2)) us each"
        )
        Report.line(
            "\(figure): JSONDecoder into Codable structs", rate(baselineRate),
            "baseline, \(Report.decimal(baselineRate.secondsPerUnit * 1e6, digits: 1)) us each")
        return DecodeSummary(
            name: "V2 notification and both JWS read, as received", ratio: ratios[0],
            megabytesPerSecond: fastRate.megabytesPerSecond)
    }

    /// Get Transaction History pages of compact JWS strings: the page, then each transaction's payload.
    private static func historyPages(
        _ pages: [Data], _ settings: BenchmarkSettings, decoder: JSONDecoder
    ) -> DecodeSummary {
        let bytes = pages.reduce(0) { $0 + $1.count }
        let transactions = pages.count * DecodeInputs.transactionsPerPage
        let (rates, ratios) = measureSideBySide(
            units: transactions, bytes: bytes, settings, baseline: 1,
            [
                {
                    for page in pages {
                        keep(
                            decodeOrStop(
                                { try TransactionHistoryResponse(jsonData: $0).decodeTransactionsUnverified() }, page))
                    }
                },
                {
                    for page in pages {
                        keep(decodeOrStop({ try Baseline.decodeHistoryPage($0, with: decoder) }, page))
                    }
                },
                { for page in pages { keep(byteScan(page)) } },
            ])
        let (fastRate, baselineRate, floorRate) = (rates[0], rates[1], rates[2])
        let figure = "decode history page of \(DecodeInputs.transactionsPerPage) JWS, \(bytes / pages.count) B"
        let ratio = ratios[0]
        Report.line(
            "\(figure): fast path", rate(fastRate, unit: "transactions"),
            "\(Report.ratio(ratio)) JSONDecoder, \(Report.count(fastRate.unitsPerSecond / 20)) pages/s")
        Report.line(
            "\(figure): Foundation base64 + JSONDecoder", rate(baselineRate, unit: "transactions"), "baseline")
        Report.line(
            "\(figure): byte scan (floor)", "\(Report.count(floorRate.megabytesPerSecond)) MB/s",
            "\(Report.ratio(ratios[2])) JSONDecoder")
        return DecodeSummary(name: "history page (JWS)", ratio: ratio, megabytesPerSecond: fastRate.megabytesPerSecond)
    }

    /// Decodes one input, stopping the benchmark if it fails: a figure of failures would mean nothing.
    @inline(__always)
    private static func decodeOrStop<Value>(_ decode: (Data) throws -> Value, _ input: Data) -> Value {
        do {
            return try decode(input)
        } catch {
            print("entitlements-bench: an input does not decode: \(error)")
            exit(1)
        }
    }

    private static func rate(_ throughput: Throughput, unit: String = "payloads") -> String {
        "\(Report.count(throughput.unitsPerSecond)) \(unit)/s, \(Report.count(throughput.megabytesPerSecond)) MB/s"
    }

    /// Stops the benchmark if a path fails to decode its inputs: a figure of failures would mean nothing.
    private static func check<Fast, Base>(
        _ name: String, _ inputs: [Data], _ fast: (Data) throws -> Fast, _ baseline: (Data) throws -> Base
    ) {
        for input in inputs {
            do {
                _ = try fast(input)
                _ = try baseline(input)
            } catch {
                print("entitlements-bench: \(name): an input does not decode: \(error)")
                exit(1)
            }
        }
    }
}

/// `--decode-probe KIND CALLS`: decodes one kind of input `CALLS` times over and nothing else, so that a profiler such
/// as callgrind sees only that decoder.
enum DecodeProbe {
    static let flag = "--decode-probe"
    static let kinds = ["typical", "every-field", "renewal-info", "notification", "notification-read", "history-page"]

    static func run(kind: String, calls: Int) -> Int32 {
        guard kinds.contains(kind) else {
            print("decode probe: KIND is one of \(kinds.joined(separator: ", "))")
            return 2
        }
        let inputs = DecodeInputs(count: 200, pages: 10)
        // Each kind: the inputs one call reads, and how it decodes one of them.
        let (work, decode): ([Data], (Data) throws -> Void) =
            switch kind {
            case "typical": (inputs.typicalTransactions, { keep(try TransactionPayload(jsonData: $0)) })
            case "every-field": (inputs.fullTransactions, { keep(try TransactionPayload(jsonData: $0)) })
            case "renewal-info": (inputs.renewalInfos, { keep(try RenewalInfoPayload(jsonData: $0)) })
            case "notification": (inputs.notifications, { keep(try NotificationPayload(jsonData: $0)) })
            case "notification-read":
                (inputs.notifications, { keep(readNestedStrings(try NotificationPayload(jsonData: $0))) })
            default:
                (
                    inputs.historyPages,
                    { keep(try TransactionHistoryResponse(jsonData: $0).decodeTransactionsUnverified()) }
                )
            }
        let start = threadSeconds()
        do {
            for _ in 0..<calls {
                for input in work { try decode(input) }
            }
        } catch {
            print("decode probe: an input does not decode: \(error)")
            return 1
        }
        let units = work.count * calls
        let seconds = threadSeconds() - start
        print("decode probe, \(kind), \(calls) calls: \(Report.count(Double(units) / seconds)) inputs/s")
        return 0
    }
}

/// Takes a notification's two signed strings as a verifier is handed them: as contiguous UTF-8.
@inline(never)
func readNestedStrings(_ notification: NotificationPayload) -> Int {
    readNestedStrings(notification.data?.signedTransactionInfo, notification.data?.signedRenewalInfo)
}

/// Takes two signed strings as contiguous UTF-8 (`withUTF8`, which costs nothing for a native string and copies
/// one built lazily or from other storage) and reads their length and their first and last bytes.
@inline(never)
func readNestedStrings(_ transaction: String?, _ renewal: String?) -> Int {
    var total = 0
    for var string in [transaction, renewal] {
        total &+= string?.withUTF8 { bytes in bytes.count &+ Int(bytes.first ?? 0) &+ Int(bytes.last ?? 0) } ?? 0
    }
    return total
}
