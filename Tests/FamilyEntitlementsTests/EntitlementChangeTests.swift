import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// `EntitlementReport.changes(from:)`, one row per kind of change: two reports, and the changes in their order.
struct EntitlementChangeTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var testDescription: String
        /// nil: the service stored no report before.
        var previous: EntitlementReport?
        var current: EntitlementReport
        var changes: [EntitlementChange]
    }

    static func product(
        _ id: ProductID, _ state: AccessState, chain: String = "2000000001", willRenew: Bool? = nil,
        revocation: RevocationCauseFinding? = nil
    ) -> ProductDecision {
        ProductDecision(
            productId: id, state: state, revocation: revocation, willRenew: willRenew,
            transactionId: TransactionID("\(chain)-\(id.rawValue)"), originalTransactionId: OriginalTransactionID(chain)
        )
    }

    static func report(_ products: [ProductDecision], _ entitlements: [EntitlementID: Bool] = [:]) -> EntitlementReport
    {
        EntitlementReport(
            asOf: Date(timeIntervalSince1970: 1_767_225_600), environment: .production,
            customer: products.contains(where: \.hasAccess) ? .active : .inactive(.expired), products: products,
            entitlements: entitlements, diagnostics: [])
    }

    static let monthly: ProductID = "com.example.pro.monthly"
    static let yearly: ProductID = "com.example.pro.yearly"
    static let lifetime: ProductID = "com.example.lifetime"

    static let rows: [Row] = [
        Row(
            testDescription: "nothing changed: no change",
            previous: report([product(monthly, .active, willRenew: true)], ["pro": true]),
            current: report([product(monthly, .active, willRenew: true)], ["pro": true]), changes: []),
        Row(
            testDescription: "no report stored before: what grants now is granted",
            previous: nil,
            current: report(
                [product(monthly, .active, willRenew: true), product(yearly, .expired)], ["pro": true, "max": false]),
            changes: [.entitlementGranted("pro"), .accessGranted(monthly, state: .active)]),
        Row(
            testDescription: "access granted: a purchase",
            previous: report([product(monthly, .expired)], ["pro": false]),
            current: report([product(monthly, .active)], ["pro": true]),
            changes: [.entitlementGranted("pro"), .accessGranted(monthly, state: .active)]),
        Row(
            testDescription: "access lost: a refund, with its stated cause",
            previous: report([product(monthly, .active)], ["pro": true]),
            current: report([product(monthly, .revoked, revocation: .stated(.refund))], ["pro": false]),
            changes: [.entitlementLost("pro"), .accessLost(monthly, cause: .revoked(.refund))]),
        Row(
            testDescription: "access lost: a member left the family, cause inferred",
            previous: report([product(monthly, .active)], ["pro": true]),
            current: report([product(monthly, .revoked, revocation: .inferred(.familyRevocation))], ["pro": false]),
            changes: [.entitlementLost("pro"), .accessLost(monthly, cause: .revoked(.familyRevocation))]),
        Row(
            testDescription: "access lost: revoked without a cause is an unknown revocation",
            previous: report([product(monthly, .gracePeriod)]),
            current: report([product(monthly, .revoked)]),
            changes: [.accessLost(monthly, cause: .revoked(.unknown))]),
        Row(
            testDescription: "access lost: billing retry",
            previous: report([product(monthly, .active, willRenew: true)]),
            current: report([product(monthly, .billingRetry, willRenew: true)]),
            changes: [.accessLost(monthly, cause: .billingRetry)]),
        Row(
            testDescription: "access lost: the grace period ended",
            previous: report([product(monthly, .gracePeriod)]),
            current: report([product(monthly, .expired)]),
            changes: [.accessLost(monthly, cause: .expired)]),
        Row(
            testDescription: "access lost: the data no longer says how long access lasts",
            previous: report([product(lifetime, .active)]),
            current: report([product(lifetime, .undetermined)]),
            changes: [.accessLost(lifetime, cause: .undetermined)]),
        Row(
            testDescription: "access lost: upgraded, and nothing of the chain gained access",
            previous: report([product(monthly, .active), product(yearly, .active, chain: "2000000009")]),
            current: report([product(monthly, .upgraded), product(yearly, .active, chain: "2000000009")]),
            changes: [.accessLost(monthly, cause: .upgraded)]),
        Row(
            testDescription: "access lost: the product is no longer reported",
            previous: report([product(monthly, .active)]), current: report([]),
            changes: [.accessLost(monthly, cause: .notReported)]),
        Row(
            testDescription: "a product no longer reported without access: no change",
            previous: report([product(monthly, .expired)]), current: report([]), changes: []),
        Row(
            testDescription: "state changed, access kept: active to grace period",
            previous: report([product(monthly, .active)], ["pro": true]),
            current: report([product(monthly, .gracePeriod)], ["pro": true]),
            changes: [.stateChanged(monthly, from: .active, to: .gracePeriod)]),
        Row(
            testDescription: "state changed, no access either side: a refund after expiry",
            previous: report([product(monthly, .expired)]),
            current: report([product(monthly, .revoked, revocation: .stated(.refund))]),
            changes: [.stateChanged(monthly, from: .expired, to: .revoked)]),
        Row(
            testDescription: "access granted again: a refund reversed",
            previous: report([product(monthly, .revoked, revocation: .stated(.refund))], ["pro": false]),
            current: report([product(monthly, .active)], ["pro": true]),
            changes: [.entitlementGranted("pro"), .accessGranted(monthly, state: .active)]),
        Row(
            testDescription: "willRenew changed: auto-renew turned off",
            previous: report([product(monthly, .active, willRenew: true)]),
            current: report([product(monthly, .active, willRenew: false)]),
            changes: [.willRenewChanged(monthly, from: true, to: false)]),
        Row(
            testDescription: "willRenew changed from unknown, after the state change of the same product",
            previous: report([product(monthly, .active)]),
            current: report([product(monthly, .gracePeriod, willRenew: true)]),
            changes: [
                .stateChanged(monthly, from: .active, to: .gracePeriod),
                .willRenewChanged(monthly, from: nil, to: true),
            ]),
        Row(
            testDescription: "product replaced: an upgrade within the chain",
            previous: report([product(monthly, .active)], ["pro": true]),
            current: report([product(monthly, .upgraded), product(yearly, .active)], ["pro": true]),
            changes: [
                .productReplaced(monthly, by: yearly, originalTransactionId: "2000000001"),
                .accessGranted(yearly, state: .active),
            ]),
        Row(
            testDescription: "no access before, none now: never replaced, though another product of the chain gained "
                + "access (a resubscription to another plan after a lapse)",
            previous: report([product(monthly, .expired)], ["pro": false]),
            current: report([product(monthly, .expired), product(yearly, .active)], ["pro": true]),
            changes: [.entitlementGranted("pro"), .accessGranted(yearly, state: .active)]),
        Row(
            testDescription: "access lost, not replaced: the other product of the chain had access already",
            previous: report([product(monthly, .active), product(yearly, .active)]),
            current: report([product(monthly, .revoked, revocation: .stated(.refund)), product(yearly, .active)]),
            changes: [.accessLost(monthly, cause: .revoked(.refund))]),
        Row(
            testDescription: "product replaced: a downgrade that took effect at renewal",
            previous: report(
                [product(monthly, .expired, willRenew: false), product(yearly, .active, willRenew: true)],
                ["pro": true, "max": true]),
            current: report(
                [product(monthly, .active, willRenew: true), product(yearly, .expired, willRenew: false)],
                ["pro": true, "max": false]),
            changes: [
                .entitlementLost("max"), .accessGranted(monthly, state: .active),
                .willRenewChanged(monthly, from: false, to: true),
                .productReplaced(yearly, by: monthly, originalTransactionId: "2000000001"),
                .willRenewChanged(yearly, from: true, to: false),
            ]),
        Row(
            testDescription: "ordered: entitlements by id, then products by id, whatever the reports' order",
            previous: report(
                [product(yearly, .active, chain: "2"), product(monthly, .expired, chain: "1")],
                ["max": true, "basic": false]),
            current: report(
                [
                    product(yearly, .revoked, chain: "2", revocation: .stated(.proratedRefund)),
                    product(lifetime, .active, chain: "3"), product(monthly, .active, chain: "1"),
                ],
                ["max": false, "basic": true, "stickers": true]),
            changes: [
                .entitlementGranted("basic"), .entitlementLost("max"), .entitlementGranted("stickers"),
                .accessGranted(lifetime, state: .active), .accessGranted(monthly, state: .active),
                .accessLost(yearly, cause: .revoked(.proratedRefund)),
            ]),
    ]

    @Test(arguments: rows)
    func changesAreTypedAndOrdered(_ row: Row) {
        #expect(row.current.changes(from: row.previous) == row.changes)
    }

    @Test(arguments: rows)
    func theReverseTakesBackWhatWasGranted(_ row: Row) {
        let previous = row.previous ?? Self.report([])
        let forward = row.current.changes(from: previous)
        let backward = previous.changes(from: row.current)
        let granted = forward.compactMap { change -> EntitlementID? in
            if case .entitlementGranted(let id) = change { return id }
            return nil
        }
        let lostBack = backward.compactMap { change -> EntitlementID? in
            if case .entitlementLost(let id) = change { return id }
            return nil
        }
        #expect(granted == lostBack)
        #expect(row.current.changes(from: row.current).isEmpty)
    }

    @Test
    func codesAndWordsNameEachKind() {
        let all: [EntitlementChange] = [
            .entitlementGranted("pro"), .entitlementLost("pro"),
            .productReplaced(Self.monthly, by: Self.yearly, originalTransactionId: "1"),
            .accessLost(Self.monthly, cause: .revoked(.familyRevocation)), .accessGranted(Self.monthly, state: .active),
            .stateChanged(Self.monthly, from: .active, to: .gracePeriod),
            .willRenewChanged(Self.monthly, from: nil, to: false),
        ]
        #expect(
            all.map(\.code) == [
                "entitlement_granted", "entitlement_lost", "product_replaced", "access_lost", "access_granted",
                "state_changed", "will_renew_changed",
            ])
        #expect(all.map(\.takesAccessAway) == [false, true, false, true, false, false, false])
        #expect(all.map(\.entitlementId) == ["pro", "pro", nil, nil, nil, nil, nil])
        #expect(
            all.map(\.productId) == [nil, nil, Self.monthly, Self.monthly, Self.monthly, Self.monthly, Self.monthly])
        #expect(all[3].description == "com.example.pro.monthly lost access: revoked (familyRevocation)")
        #expect(all[6].description == "com.example.pro.monthly willRenew unknown -> false")
    }

    /// A shipped scenario decided without, then with, the REVOKE (no revocationDate) that tells a member left the
    /// family: the member's access is lost for Family Sharing.
    @Test
    func aDepartureFromAShippedScenarioIsAccessLostForFamilySharing() throws {
        let scenario = Scenario.oneMemberLeavesLeaver
        var before = try scenario.history()
        before.notifications.removeAll { $0.notificationType == .revoke }
        let after = try scenario.rebuild()
        let previous = rebuildEntitlements(
            history: before, asOf: after.asOf, environment: after.environment, catalog: try scenario.catalog())
        let changes = after.changes(from: previous)
        let lost = changes.filter { change in
            if case .accessLost(_, cause: .revoked(.familyRevocation)) = change { return true }
            return false
        }
        #expect(lost.count == 1, "\(changes)")
        #expect(changes.contains { $0.takesAccessAway && $0.entitlementId != nil }, "\(changes)")
        #expect(previous.changes(from: after).contains { $0.code == "access_granted" })
    }
}

/// `changes(from:)` against a straightforward reference on generated pairs of reports: products in both reports, in
/// one only, sharing chains and states, in any order and sometimes twice; empty reports and no report stored before.
extension EntitlementChangeTests {
    /// The changes as the documented rules read, looking every product up by a scan: quadratic, and plain to check.
    enum Reference {
        static func changes(_ current: EntitlementReport, from previous: EntitlementReport?) -> [EntitlementChange] {
            var changes: [EntitlementChange] = []
            let entitlementIds = Set(current.entitlements.keys).union(
                previous.map { Array($0.entitlements.keys) } ?? [])
            for id in entitlementIds.sorted() {
                let before = previous?.entitlements[id] ?? false
                let now = current.entitlements[id] ?? false
                if before != now { changes.append(now ? .entitlementGranted(id) : .entitlementLost(id)) }
            }
            let productIds = Set(current.products.map(\.productId)).union(previous?.products.map(\.productId) ?? [])
            for id in productIds.sorted() {
                let before = previous?.products.first { $0.productId == id }
                let now = current.products.first { $0.productId == id }
                changes += productChanges(id, before: before, now: now, current: current, previous: previous)
            }
            return changes
        }

        static func productChanges(
            _ id: ProductID, before: ProductDecision?, now: ProductDecision?, current: EntitlementReport,
            previous: EntitlementReport?
        ) -> [EntitlementChange] {
            switch (before, now) {
            case (nil, nil): return []
            case (let before?, nil): return before.hasAccess ? [.accessLost(id, cause: .notReported)] : []
            case (nil, let now?): return now.hasAccess ? [.accessGranted(id, state: now.state)] : []
            case (let before?, let now?):
                var changes: [EntitlementChange] = []
                if before.hasAccess && !now.hasAccess {
                    // The first product of the report's list, of the same chain and another id, that gained access.
                    let replacement = current.products.first { other in
                        let had = previous?.products.first { $0.productId == other.productId }?.hasAccess ?? false
                        return other.productId != id && other.originalTransactionId == now.originalTransactionId
                            && other.hasAccess && !had
                    }
                    if let replacement {
                        changes.append(
                            .productReplaced(
                                id, by: replacement.productId, originalTransactionId: now.originalTransactionId))
                    } else {
                        changes.append(.accessLost(id, cause: cause(of: now)))
                    }
                } else if !before.hasAccess && now.hasAccess {
                    changes.append(.accessGranted(id, state: now.state))
                } else if before.state != now.state {
                    changes.append(.stateChanged(id, from: before.state, to: now.state))
                }
                if before.willRenew != now.willRenew {
                    changes.append(.willRenewChanged(id, from: before.willRenew, to: now.willRenew))
                }
                return changes
            }
        }

        /// The cause of a state that grants nothing.
        static func cause(of decision: ProductDecision) -> AccessLossCause {
            switch decision.state {
            case .revoked: .revoked(decision.revocationCause ?? .unknown)
            case .billingRetry: .billingRetry
            case .expired: .expired
            case .upgraded: .upgraded
            case .undetermined, .active, .gracePeriod: .undetermined
            }
        }
    }

    static let states: [AccessState] = [
        .active, .gracePeriod, .revoked, .billingRetry, .expired, .upgraded, .undetermined,
    ]

    /// A report of up to `most` products drawn from eight ids over three chains: sorted by product id as the rebuild
    /// sorts them, or in any order, and now and then with a product id twice.
    static func generatedReport(most: Int, random: inout SeededRandom) -> EntitlementReport {
        var products: [ProductDecision] = []
        for _ in 0..<Int.random(in: 0...most, using: &random) {
            let id = ProductID("com.example.product.\(Int.random(in: 0..<8, using: &random))")
            if products.contains(where: { $0.productId == id }) && !random.chance(0.1) { continue }
            let revocation: RevocationCauseFinding? =
                random.chance(0.5) ? nil : random.chance(0.5) ? .stated(.refund) : .inferred(.familyRevocation)
            products.append(
                product(
                    id, states.randomElement(using: &random) ?? .active,
                    chain: "\(2_000_000_000 + Int.random(in: 0..<3, using: &random))",
                    willRenew: [true, false, nil].randomElement(using: &random) ?? nil, revocation: revocation))
        }
        if random.chance(0.7) {
            // The rebuild's order; a stable sort keeps a repeated id in the order drawn.
            products = products.enumerated().sorted {
                ($0.element.productId, $0.offset) < ($1.element.productId, $1.offset)
            }.map(\.element)
        } else {
            products.shuffle(using: &random)
        }
        var entitlements: [EntitlementID: Bool] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            entitlements[EntitlementID("entitlement.\(Int.random(in: 0..<5, using: &random))")] = random.chance(0.5)
        }
        return report(products, entitlements)
    }

    /// Fifty generated pairs of reports from a seed: empty reports now and then, and some with no report stored before.
    static func generatedPairs(seed: UInt64) -> [(previous: EntitlementReport?, current: EntitlementReport)] {
        var random = SeededRandom(seed: seed &* 0x9E37_79B9 &+ 11)
        return (0..<50).map { round in
            let most = round % 10 == 0 ? 0 : 12
            let current = generatedReport(most: most, random: &random)
            let previous = random.chance(0.15) ? nil : generatedReport(most: most, random: &random)
            return (previous, current)
        }
    }

    @Test("changes(from:) equals the reference on generated pairs of reports", arguments: UInt64(1)...40)
    func changesEqualTheReference(seed: UInt64) {
        for (round, pair) in Self.generatedPairs(seed: seed).enumerated() {
            #expect(
                pair.current.changes(from: pair.previous) == Reference.changes(pair.current, from: pair.previous),
                "seed \(seed), round \(round)")
            if let previous = pair.previous {
                #expect(
                    previous.changes(from: pair.current) == Reference.changes(previous, from: pair.current),
                    "seed \(seed), round \(round), reversed")
            }
        }
    }

    /// The generated pairs give every kind of change, and a replacement that another product of the chain could have
    /// given too, so that the comparison above covers each rule.
    @Test("the generated pairs give every kind of change")
    func generatedPairsGiveEveryKind() {
        var codes: [String: Int] = [:]
        var emptyLists = 0
        for seed in UInt64(1)...40 {
            for pair in Self.generatedPairs(seed: seed) {
                let changes = Reference.changes(pair.current, from: pair.previous)
                if changes.isEmpty { emptyLists += 1 }
                for change in changes { codes[change.code, default: 0] += 1 }
            }
        }
        #expect(codes.count == 7, "\(codes)")
        #expect(codes.values.allSatisfy { $0 >= 20 }, "\(codes)")
        #expect(emptyLists < 40 * 50 / 2, "\(emptyLists) of \(40 * 50) pairs change nothing")
    }
}
