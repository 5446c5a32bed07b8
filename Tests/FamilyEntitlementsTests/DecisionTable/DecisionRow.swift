import FamilyEntitlements
import Foundation
import Testing

/// A value a row either checks or leaves alone.
enum Expect<Value: Equatable & Sendable>: Sendable {
    case unchecked
    case equals(Value)

    func mismatch(_ actual: Value) -> Bool {
        if case .equals(let expected) = self { return expected != actual }
        return false
    }
}

/// What a row expects of one product's decision.
struct ProductExpectation: Sendable {
    var productId: ProductID
    var state: AccessState
    var hasAccess: Bool
    var revocationCause: Expect<RevocationCause?> = .unchecked
    var causeInferred: Expect<Bool> = .unchecked
    var willRenew: Expect<Bool?> = .unchecked
    var canManage: Expect<Bool> = .unchecked
    var ownership: Expect<OwnershipType?> = .unchecked
    var period: Expect<PricingPeriod> = .unchecked
    var transactionId: Expect<String> = .unchecked
    var expiresDate: Expect<Date?> = .unchecked
    /// Reasons the evidence must hold, each compared by its rule and its typed fact, never by its words.
    var reasons: [Reason] = []
    /// How many reasons the evidence gives, where a row says that it names no more than these.
    var reasonCount: Expect<Int> = .unchecked

    /// The expectation in words, for docs/decision-table.md.
    var summary: String {
        var parts = [
            "`\(productId.rawValue.replacingOccurrences(of: "org.familyentitlements.demo.", with: ""))`: \(state.rawValue)"
        ]
        parts.append(hasAccess ? "access" : "no access")
        if case .equals(let cause) = revocationCause { parts.append("cause \(cause?.rawValue ?? "null")") }
        if case .equals(let inferred) = causeInferred { parts.append(inferred ? "inferred" : "stated") }
        if case .equals(let renew) = willRenew { parts.append("willRenew \(renew.map(String.init) ?? "null")") }
        if case .equals(let manage) = canManage { parts.append("canManage \(manage)") }
        if case .equals(let period) = period { parts.append("period \(period.rawValue)") }
        if case .equals(let id) = transactionId { parts.append("reports transaction \(id)") }
        for reason in reasons { parts.append("evidence \"\(reason.text)\"") }
        return parts.joined(separator: ", ")
    }
}

/// One named row of the decision table: a history, an instant, the expected decision and the evidence for it.
struct DecisionRow: Sendable, CustomTestStringConvertible {
    /// The rule of docs/decision-table.md the row shows; its rows live in `Rules/`, one file per rule.
    var rule: DecisionRule
    /// What the row shows, in words a reviewer checks against Apple's documentation.
    var name: String
    /// Where the rule comes from: a section of apple-facts.md or Apple's documentation.
    var source: String
    var history: History
    /// The instant of evaluation, in days from 2026-01-01.
    var asOf: Double
    var environment: Environment = .production
    var catalog: ProductCatalog? = nil
    /// What reading the history noticed, as `History.decodeUnverified` reports it: entries that could not be read.
    var decodingWarnings: [PayloadDecodingWarning] = []
    var products: [ProductExpectation]
    var customer: Expect<CustomerStatus> = .unchecked
    var customerReason: Expect<InactiveReason?> = .unchecked
    /// The diagnostic codes the report must carry, no more and no fewer.
    var diagnostics: Set<Diagnostic.Code> = []
    var entitlements: [EntitlementID: Bool]? = nil
    /// The report's one answer per entitlement, every field compared, for every entitlement the report answers for;
    /// nil leaves them unchecked.
    var entitlementDecisions: [EntitlementID: EntitlementDecision]? = nil

    var testDescription: String { "rule \(rule.rawValue): \(name)" }

    var instant: Date { Given.day(asOf) }

    func rebuild(_ history: History? = nil) -> EntitlementReport {
        rebuildEntitlements(
            history: history ?? self.history, asOf: instant, environment: environment, catalog: catalog,
            decodingWarnings: decodingWarnings)
    }

    /// The differences between the report and this row's expectations; empty when the row holds.
    func mismatches(in report: EntitlementReport) -> [String] {
        var problems: [String] = []
        let expectedIds = products.map(\.productId).sorted()
        let actualIds = report.products.map(\.productId)
        if expectedIds != actualIds {
            problems.append("products \(actualIds), expected \(expectedIds)")
        }
        for expectation in products {
            guard let decision = report.decision(for: expectation.productId) else { continue }
            problems += Self.mismatches(decision, expectation)
        }
        if customer.mismatch(report.customerStatus) {
            problems.append("customerStatus \(report.customerStatus), expected \(customer)")
        }
        if customerReason.mismatch(report.customerReason) {
            problems.append("customerReason \(String(describing: report.customerReason)), expected \(customerReason)")
        }
        let codes = Set(report.diagnostics.map(\.code))
        if codes != diagnostics {
            problems.append("diagnostics \(report.diagnostics.map(\.description)), expected codes \(diagnostics)")
        }
        if let entitlements, entitlements != report.entitlements {
            problems.append("entitlements \(report.entitlements), expected \(entitlements)")
        }
        if let entitlementDecisions {
            problems += Self.mismatches(report.entitlementDecisions, entitlementDecisions)
        }
        return problems
    }

    private static func mismatches(
        _ actual: [EntitlementID: EntitlementDecision], _ expected: [EntitlementID: EntitlementDecision]
    ) -> [String] {
        guard Set(actual.keys) == Set(expected.keys) else {
            return ["entitlementDecisions for \(actual.keys.sorted()), expected \(expected.keys.sorted())"]
        }
        return expected.keys.sorted().flatMap { id -> [String] in
            guard let want = expected[id], let got = actual[id], want != got else { return [] }
            let differing = zip(want.fields(dates: \.millisecondsText), got.fields(dates: \.millisecondsText))
                .filter { $0.value != $1.value }
                .map { wanted, found in "\(wanted.name) = \(found.value), expected \(wanted.value)" }
            return ["entitlementDecisions[\(id)]: " + differing.joined(separator: ", ")]
        }
    }

    private static func mismatches(_ decision: ProductDecision, _ expected: ProductExpectation) -> [String] {
        var problems: [String] = []
        let name = decision.productId
        func check<T: Equatable & Sendable>(_ field: String, _ expect: Expect<T>, _ actual: T) {
            if expect.mismatch(actual) { problems.append("\(name).\(field) = \(actual), expected \(expect)") }
        }
        check("state", .equals(expected.state), decision.state)
        check("hasAccess", .equals(expected.hasAccess), decision.hasAccess)
        check("revocationCause", expected.revocationCause, decision.revocationCause)
        check("causeInferred", expected.causeInferred, decision.causeInferred)
        check("willRenew", expected.willRenew, decision.willRenew)
        check("canManage", expected.canManage, decision.canManage)
        check("ownership", expected.ownership, decision.ownership)
        check("period", expected.period, decision.period)
        check("transactionId", expected.transactionId, decision.transactionId.rawValue)
        check("expiresDate", expected.expiresDate, decision.expiresDate)
        check("reasons.count", expected.reasonCount, decision.reasons.count)
        for reason in expected.reasons
        where !decision.reasons.contains(where: { $0.rule == reason.rule && $0.fact == reason.fact }) {
            problems.append("\(name).reasons lack \(reason.rule) \(reason.fact): \(decision.reasons.map(\.fact))")
        }
        // Evidence that names a rule in words names the rule it carries.
        for reason in decision.reasons where reason.text.hasPrefix("rule ") {
            if !reason.text.hasPrefix("rule \(reason.rule.rawValue): ") {
                problems.append("\(name): \"\(reason.text)\" carries rule \(reason.rule.rawValue)")
            }
        }
        return problems
    }
}

extension DecisionRow {
    /// Every row of the decision table, in rule order.
    static let all: [DecisionRow] = DecisionRule.allCases.flatMap(\.rows)
}

extension DecisionRule {
    /// This rule's rows, from the file of `Rules/` named after it.
    var rows: [DecisionRow] {
        switch self {
        case .snapshots: DecisionRow.snapshots
        case .autoRenewableSubscriptions: DecisionRow.autoRenewableSubscriptions
        case .upgradesAndDowngrades: DecisionRow.upgradesAndDowngrades
        case .oneTimePurchases: DecisionRow.oneTimePurchases
        case .familySharing: DecisionRow.familySharing
        case .willRenew: DecisionRow.willRenew
        case .revocationCause: DecisionRow.revocationCause
        case .offers: DecisionRow.offers
        case .environment: DecisionRow.environment
        case .unknownValues: DecisionRow.unknownValues
        case .customerStatus: DecisionRow.customerStatus
        case .evidence: DecisionRow.evidence
        }
    }
}

extension ProductExpectation {
    init(
        _ productId: String, _ state: AccessState, access: Bool, _ change: (inout ProductExpectation) -> Void = { _ in }
    ) {
        self.init(productId: ProductID(productId), state: state, hasAccess: access)
        change(&self)
    }
}
