import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Advanced Commerce information as typed values: every member read on both decoding paths, unknown members kept at
/// every level, `taxRate` an exact decimal, and errors that name the member.
@Suite("Advanced Commerce information")
struct AdvancedCommerceTests {
    /// A transaction whose Advanced Commerce information has a member this version does not know at each level.
    static let withUnknownMembers = #"""
        {"transactionId":"1","advancedCommerceInfo":{"taxRate":"0.0825","newTotal":{"amount":[1,2.5,null]},
        "descriptors":{"displayName":"Plan","tagline":"new"},
        "items":[{"SKU":"sku.a","price":1000,"bundle":true,"offer":{"period":"P3D","periodCount":2,"price":0,
        "reason":"NEW_REASON","stacked":false},"refunds":[{"refundAmount":500,"refundType":"PARTIAL_V2","note":"x"}]}]}}
        """#

    /// The error each decoding path gives for `data` as a transaction, nil where it accepts it.
    static func errorsOfBothPaths(_ data: Data) -> [(String, PayloadDecodingError?)] {
        var fast: PayloadDecodingError?
        do throws(PayloadDecodingError) { _ = try TransactionPayload(jsonData: data) } catch { fast = error }
        var reference: PayloadDecodingError?
        do throws(PayloadDecodingError) { _ = try TransactionPayload(referenceJSONData: data) } catch {
            reference = error
        }
        return [("fast", fast), ("reference", reference)]
    }

    @Test("unknown members are kept at every level, and both paths read the same values")
    func unknownMembersAreKept() throws {
        let data = Data(Self.withUnknownMembers.utf8)
        let fast = try TransactionPayload(jsonData: data)
        let reference = try TransactionPayload(referenceJSONData: data)
        #expect(fast == reference)
        let commerce = try #require(fast.advancedCommerceInfo)
        #expect(
            commerce.unknownMembers == ["newTotal": .object(["amount": .array([.integer(1), .number(2.5), .null])])])
        #expect(
            commerce.descriptors
                == AdvancedCommerceDescriptors(displayName: "Plan", unknownMembers: ["tagline": .string("new")]))
        let item = try #require(commerce.items?.first)
        #expect(item.sku == "sku.a")
        #expect(item.unknownMembers == ["bundle": .bool(true)])
        #expect(item.offer?.period == .threeDays)
        #expect(item.offer?.reason == AdvancedCommerceOfferReason(rawValue: "NEW_REASON"))
        #expect(item.offer?.reason?.isKnown == false)
        #expect(item.offer?.unknownMembers == ["stacked": .bool(false)])
        #expect(item.refunds?.first?.refundType?.rawValue == "PARTIAL_V2")
        #expect(item.refunds?.first?.unknownMembers == ["note": .string("x")])
        #expect(commerce.taxRate == Decimal(sign: .plus, exponent: -4, significand: 825))
    }

    @Test("encoding writes unknown members back, and the value decodes to itself")
    func unknownMembersRoundTrip() throws {
        let decoded = try TransactionPayload(jsonData: Data(Self.withUnknownMembers.utf8))
        let encoded = try decoded.jsonData()
        #expect(try TransactionPayload(jsonData: encoded) == decoded)
        #expect(try TransactionPayload(referenceJSONData: encoded) == decoded)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""newTotal":{"amount":[1,2.5,null]}"#))
        #expect(text.contains(#""taxRate":"0.0825""#))
    }

    @Test(
        "taxRate is read digit for digit, and its value, not its spelling, is written back",
        arguments: [
            ("0.15", Decimal(sign: .plus, exponent: -2, significand: 15), "0.15"),
            ("0.150", Decimal(sign: .plus, exponent: -2, significand: 15), "0.15"),
            ("7", Decimal(7), "7"),
            ("-0.5", Decimal(sign: .minus, exponent: -1, significand: 5), "-0.5"),
            ("-0", Decimal(0), "0"),
            (
                "0.1000000000000000055511151231257827", Decimal(string: "0.1000000000000000055511151231257827"),
                "0.1000000000000000055511151231257827"
            ),
        ] as [(String, Decimal?, String)])
    func taxRateIsExact(text: String, value: Decimal?, written: String) throws {
        let value = try #require(value)
        let data = Data(#"{"advancedCommerceInfo":{"taxRate":"\#(text)"}}"#.utf8)
        let fast = try TransactionPayload(jsonData: data)
        #expect(fast.advancedCommerceInfo?.taxRate == value)
        #expect(try TransactionPayload(referenceJSONData: data) == fast)
        #expect(String(decoding: try fast.jsonData(), as: UTF8.self).contains(#""taxRate":"\#(written)""#))
    }

    @Test("generated plain decimals of 1 to 38 digits read as Foundation's own parser reads them")
    func generatedTaxRatesMatchFoundation() throws {
        var random = SeededRandom(seed: 0x5EED_DEC1)
        func next() -> UInt64 { random.next() }
        for _ in 0..<600 {
            let digitCount = Int(next() % 38) + 1
            let digits = String((0..<digitCount).map { _ in Character(String(next() % 10)) })
            let point = Int(next() % UInt64(digitCount))
            let text =
                (next() % 4 == 0 ? "-" : "")
                + (point == 0 ? digits : digits.prefix(digitCount - point) + "." + digits.suffix(point))
            let expected = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
            let data = Data(#"{"advancedCommerceInfo":{"taxRate":"\#(text)"}}"#.utf8)
            let fast = try TransactionPayload(jsonData: data)
            #expect(fast.advancedCommerceInfo?.taxRate == expected, "\(text)")
            #expect(try TransactionPayload(referenceJSONData: data) == fast, "\(text)")
        }
    }

    @Test(
        "a taxRate that is not plain decimal notation is invalid_value at its path, on both paths",
        arguments: [
            "", "1e-2", "15%", ".15", "1.", " 0.15", "0,15", "+1", "--1", "0x1", "1.2.3", "NaN",
            "0." + String(repeating: "1", count: 38),
        ])
    func taxRateRefused(text: String) {
        let data = Data(#"{"advancedCommerceInfo":{"taxRate":"\#(text)"}}"#.utf8)
        for (path, error) in Self.errorsOfBothPaths(data) {
            #expect(error?.code == .invalidValue, "\(path) path, \"\(text)\"")
            #expect(error?.path == "advancedCommerceInfo.taxRate", "\(path) path, \"\(text)\"")
        }
    }

    @Test("a wrong type inside an item names the item and the member, on both paths")
    func errorsNameTheItem() {
        let data = Data(#"{"advancedCommerceInfo":{"items":[{"SKU":"a"},{"refunds":[{"refundAmount":"1"}]}]}}"#.utf8)
        for (path, error) in Self.errorsOfBothPaths(data) {
            #expect(error?.code == .wrongType, "\(path) path")
            #expect(error?.path == "advancedCommerceInfo.items[1].refunds[0].refundAmount", "\(path) path")
        }
    }

    @Test("Advanced Commerce information is held out of line: a pointer in each payload, whether present or not")
    func payloadsStaySmall() throws {
        // What the rebuild copies and scans per transaction: the typed information inline would add about 170 bytes.
        #expect(MemoryLayout<AdvancedCommerceTransactionInfo>.size > 100)
        #expect(MemoryLayout<TransactionPayload>.size <= 520, "\(MemoryLayout<TransactionPayload>.size) bytes")
        #expect(MemoryLayout<RenewalInfoPayload>.size <= 420, "\(MemoryLayout<RenewalInfoPayload>.size) bytes")
        var transaction = try TransactionPayload(jsonData: Data(Self.withUnknownMembers.utf8))
        var copy = transaction
        copy.advancedCommerceInfo?.taxCode = "changed"
        #expect(transaction.advancedCommerceInfo?.taxCode == nil, "a copy is a value: changing it leaves the original")
        #expect(copy.advancedCommerceInfo?.taxCode == "changed")
        transaction.advancedCommerceInfo = nil
        #expect(transaction.advancedCommerceInfo == nil)
        #expect(copy != transaction)
    }

    @Test("a name canonically equal to a field is that field on both paths, and an unknown member never overwrites one")
    func canonicalNamesAndCollidingMembers() throws {
        let data = Data(#"{"advancedCommerceInfo":{"items":[{"S\u212AU":"x"}]}}"#.utf8)
        for decoded in [try TransactionPayload(jsonData: data), try TransactionPayload(referenceJSONData: data)] {
            #expect(decoded.advancedCommerceInfo?.items?.first?.sku == "x")
            #expect(decoded.advancedCommerceInfo?.items?.first?.unknownMembers == [:])
        }
        let info = AdvancedCommerceTransactionInfo(
            taxRate: Decimal(sign: .plus, exponent: -2, significand: 15),
            unknownMembers: ["taxRate": .string("x"), "later": .bool(true)])
        let encoded = try TransactionPayload(advancedCommerceInfo: info).jsonData()
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""taxRate":"0.15""#), "\(text)")
        #expect(text.contains(#""later":true"#), "\(text)")
        #expect(try TransactionPayload(jsonData: encoded).advancedCommerceInfo?.taxRate == info.taxRate)
    }

    @Test("the open values know Apple's documented raw values and keep others")
    func openValues() throws {
        #expect(AdvancedCommercePeriod.documentedValues.map(\.rawValue) == ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"])
        #expect(AdvancedCommerceRefundType.documentedValues.map(\.rawValue) == ["FULL", "PRORATED", "CUSTOM"])
        #expect(
            AdvancedCommercePriceIncreaseInfoStatus.documentedValues.map(\.rawValue) == [
                "SCHEDULED", "PENDING", "ACCEPTED",
            ])
        let renewal = try RenewalInfoPayload(
            jsonData: Data(
                #"{"advancedCommerceInfo":{"period":"P2Y","items":[{"priceIncreaseInfo":{"status":"LATER"}}]}}"#.utf8))
        #expect(renewal.advancedCommerceInfo?.period?.rawValue == "P2Y")
        #expect(renewal.advancedCommerceInfo?.period?.isKnown == false)
        #expect(renewal.advancedCommerceInfo?.items?.first?.priceIncreaseInfo?.status?.rawValue == "LATER")
    }
}
