import FamilyEntitlements
import Foundation

/// A customer's history that ships in `Fixtures/Scenarios/`, with the decision the engine must reach.
///
/// Each scenario folder holds `history.json` (a file `entitlements rebuild` reads), `expected.json` (the decision in
/// the JSON contract of `entitlements rebuild --format json`, whose `asOf` and `environment` are the instant and
/// environment of evaluation) and, where products need one, `catalog.json`. A scenario is one customer: a family
/// appears as one scenario per person, named `<family>-organiser` and `<family>-member-<n>`, whose histories share
/// the family's dates and products but never a transaction identifier (`familyOfSix`, `purchaserRefunded`). What each
/// case shows is its `summary`, the one place it is written (the table of docs/testing-your-code.md is generated from
/// it with `REGENERATE_SCENARIOS=1 swift test --filter FixtureTests`).
public enum Scenario: String, CaseIterable, Hashable, Sendable {
    case familyOfSixOrganiser = "family-of-six-organiser"
    case familyOfSixMember1 = "family-of-six-member-1"
    case familyOfSixMember2 = "family-of-six-member-2"
    case familyOfSixMember3 = "family-of-six-member-3"
    case familyOfSixMember4 = "family-of-six-member-4"
    case familyOfSixMember5 = "family-of-six-member-5"
    case purchaserRefundedOrganiser = "purchaser-refunded-organiser"
    case purchaserRefundedMember = "purchaser-refunded-member"
    case purchaserRefundedMemberReasonZero = "purchaser-refunded-member-reason-zero"
    case purchaserRefundedMemberRevocationType = "purchaser-refunded-member-revocation-type"
    case oneMemberLeavesLeaver = "one-member-leaves-leaver"
    case oneMemberLeavesOtherMember = "one-member-leaves-other-member"
    case sharingTurnedOffMember = "sharing-turned-off-member"
    case sharingTurnedOffOrganiser = "sharing-turned-off-organiser"
    case refundReversed = "refund-reversed"
    case billingGracePeriod = "billing-grace-period"
    case billingRetry = "billing-retry"
    case billingRecovery = "billing-recovery"
    case billingRetryExpired = "billing-retry-expired"
    case billingRetryFamilyMember = "billing-retry-family-member"
    case paidIntroOfferAndFreeTrial = "paid-intro-offer-and-free-trial"
    case upgradeAndDowngrade = "upgrade-and-downgrade"
    case winBackOffer = "win-back-offer"
    case sharedNonConsumableMember = "shared-non-consumable-member"
    case nonRenewingSubscription = "non-renewing-subscription"
    case japaneseYenPrice = "japanese-yen-price"
    case kuwaitiDinarPrice = "kuwaiti-dinar-price"
    case sandboxEntryInProduction = "sandbox-entry-in-production"
    case unknownNotificationType = "unknown-notification-type"
    case unknownOwnership = "unknown-ownership"

    /// What the scenario shows, in one sentence: the description of each case.
    public var summary: String {
        switch self {
        case .familyOfSixOrganiser:
            "the organiser of a family of six, who bought the yearly plan: active, and the only one who may "
                + "manage it"
        case .familyOfSixMember1:
            "family member 1, whose shared copy arrived an hour after the purchase: active, cannot manage"
        case .familyOfSixMember2:
            "family member 2, known only from Get Transaction History and Get All Subscription Statuses: active"
        case .familyOfSixMember3:
            "family member 3, who joined the family five weeks after the purchase: active"
        case .familyOfSixMember4:
            "family member 4, who left (REVOKE without revocationDate) and came back (SUBSCRIBED RESUBSCRIBE): "
                + "active again"
        case .familyOfSixMember5:
            "family member 5, whose transaction arrives in a notification and again from Get Transaction History: "
                + "active"
        case .purchaserRefundedOrganiser:
            "the organiser after Apple refunded them (REFUND with REFUND_FULL): revoked, refund"
        case .purchaserRefundedMember:
            "a family member after the purchaser was refunded: the shared subscription is revoked (cause "
                + "inferred: refund), the member's own purchase still grants"
        case .purchaserRefundedMemberReasonZero:
            "another member after the same refund, on an older payload with revocationReason 0: revoked, cause "
                + "unknown (0 is also what a departure carries)"
        case .purchaserRefundedMemberRevocationType:
            "a third member after the same refund, on a current payload with revocationType REFUND_FULL: revoked, "
                + "refund"
        case .oneMemberLeavesLeaver:
            "a member who left the family: a REVOKE without revocationDate cuts them off (family revocation, "
                + "inferred)"
        case .oneMemberLeavesOtherMember:
            "another member of the same family: unaffected, still active"
        case .sharingTurnedOffMember:
            "a member after the organiser stopped sharing the subscription (REVOKE with FAMILY_REVOKE): revoked, "
                + "while the shared sticker pack still grants"
        case .sharingTurnedOffOrganiser:
            "the organiser who stopped sharing: still active"
        case .refundReversed:
            "a refund and then its reversal: REFUND_REVERSED reinstates access"
        case .billingGracePeriod:
            "a failed renewal in the billing grace period: access until the grace period ends"
        case .billingRetry:
            "the grace period is over and Apple retries billing: no access; ask the customer to update their "
                + "payment method"
        case .billingRecovery:
            "billing recovered after the grace period: DID_RENEW BILLING_RECOVERY grants a new period"
        case .billingRetryExpired:
            "60 days of billing retry ended with EXPIRED BILLING_RETRY: expired"
        case .billingRetryFamilyMember:
            "a family member while billing fails on the organiser's subscription: billing retry the member cannot "
                + "fix"
        case .paidIntroOfferAndFreeTrial:
            "a free trial on one plan next to a paid introductory offer on another: free trial and introductory, "
                + "never confused"
        case .upgradeAndDowngrade:
            "basic, upgraded to premium, then downgraded to basic at a renewal, in one group: basic active, "
                + "premium expired"
        case .winBackOffer:
            "a customer who came back with a win-back offer after a voluntary expiry: active at the offer price"
        case .sharedNonConsumableMember:
            "a family member with a shared sticker pack (ONE_TIME_CHARGE, FAMILY_SHARED) and coins of their own, "
                + "which grant nothing"
        case .nonRenewingSubscription:
            "two non-renewing season passes: the older one ended, the newer one grants for the catalog's three "
                + "months"
        case .japaneseYenPrice:
            "a subscription bought in Japan for JPY 480, a currency without decimals"
        case .kuwaitiDinarPrice:
            "a subscription priced KWD 1.490, a currency with three decimals"
        case .sandboxEntryInProduction:
            "a Production customer whose subscription expired, with a Sandbox purchase in the history: it grants "
                + "nothing and is reported"
        case .unknownNotificationType:
            "a notification type this library does not know: reported, its contents still evaluated; no catalog"
        case .unknownOwnership:
            "an inAppOwnershipType this library does not know (ASSIGNED): it counts, without the right to manage, "
                + "and is reported"
        }
    }

    /// The six perspectives of one family sharing the yearly plan: the organiser, then members 1 to 5.
    public static let familyOfSix: [Scenario] = [
        .familyOfSixOrganiser, .familyOfSixMember1, .familyOfSixMember2, .familyOfSixMember3, .familyOfSixMember4,
        .familyOfSixMember5,
    ]

    /// The four perspectives of one family after Apple refunded the purchaser: the organiser, then three members.
    public static let purchaserRefunded: [Scenario] = [
        .purchaserRefundedOrganiser, .purchaserRefundedMember, .purchaserRefundedMemberReasonZero,
        .purchaserRefundedMemberRevocationType,
    ]

    /// The folder of the scenario inside `Fixtures/`.
    public var folder: String { "Scenarios/\(rawValue)" }

    /// The bytes of `history.json`.
    public func historyData() throws(FixtureError) -> Data {
        try FixtureFiles.data("\(folder)/history.json")
    }

    /// The decoded history.
    public func history() throws(FixtureError) -> History {
        let data = try historyData()
        do {
            return try History.decodeUnverified(data).history
        } catch {
            throw FixtureError(path: "\(folder)/history.json", message: "\(error)")
        }
    }

    /// The catalog, where the scenario has one.
    public func catalog() throws(FixtureError) -> ProductCatalog? {
        let path = "\(folder)/catalog.json"
        guard (try? FixtureFiles.url(path)) != nil else { return nil }
        let data = try FixtureFiles.data(path)
        do {
            return try ProductCatalog(jsonData: data)
        } catch {
            throw FixtureError(path: path, message: "\(error)")
        }
    }

    /// The bytes of `expected.json`: the decision in the JSON contract of `entitlements rebuild --format json`.
    public func expectedData() throws(FixtureError) -> Data {
        try FixtureFiles.data("\(folder)/expected.json")
    }

    /// The decision the engine must reach, from `expected.json`.
    public func expectedReport() throws(FixtureError) -> EntitlementReport {
        let path = "\(folder)/expected.json"
        let data = try expectedData()
        do {
            return try PayloadJSON.decode(EntitlementReport.self, from: data)
        } catch {
            throw FixtureError(path: path, message: "\(error)")
        }
    }

    /// Runs `rebuildEntitlements(history:asOf:environment:catalog:)` at the scenario's instant and environment.
    public func rebuild() throws(FixtureError) -> EntitlementReport {
        let expected = try expectedReport()
        return rebuildEntitlements(
            history: try history(), asOf: expected.asOf, environment: expected.environment,
            catalog: try catalog())
    }
}
