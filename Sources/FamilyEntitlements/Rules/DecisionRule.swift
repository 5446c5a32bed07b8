/// A rule of the decision table (docs/decision-table.md): how the rebuild decides one aspect of access.
///
/// Each case is the single source of its rule's title and statement. The code that applies a rule names its case, so
/// that a reviewer can go from a row of the table to the code by searching for the case (for example
/// `.revocationCause`); every ``Diagnostic`` and every piece of evidence names the rule that produced it. The raw
/// value is the rule's number in the table and never changes.
public enum DecisionRule: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Rule 1: Which snapshot of a transaction or renewal info is the truth at an instant, and which is not trusted.
    case snapshots = 1
    /// Rule 2: Access of an auto-renewable subscription chain: periods, grace period, billing retry, expiry.
    case autoRenewableSubscriptions = 2
    /// Rule 3: Moves between products of one subscription group.
    case upgradesAndDowngrades = 3
    /// Rule 4: Non-consumables, non-renewing subscriptions and consumables.
    case oneTimePurchases = 4
    /// Rule 5: Transactions a family member holds through Family Sharing.
    case familySharing = 5
    /// Rule 6: Whether an auto-renewable subscription will renew.
    case willRenew = 6
    /// Rule 7: Why access was revoked: stated by Apple or inferred.
    case revocationCause = 7
    /// Rule 8: Which pricing period a transaction is in: free trial, introductory, promotional, offer code, win-back.
    case offers = 8
    /// Rule 9: Which environment and app the rebuild trusts.
    case environment = 9
    /// Rule 10: Values the library does not know, and values no real payload carries.
    case unknownValues = 10
    /// Rule 11: The customer's status and the reason it is inactive, and how products map to entitlements.
    case customerStatus = 11
    /// Rule 12: The words each decision carries.
    case evidence = 12

    /// The rule's heading in the decision table.
    public var title: String {
        switch self {
        case .snapshots: "Snapshots"
        case .autoRenewableSubscriptions: "Auto-renewable subscriptions"
        case .upgradesAndDowngrades: "Upgrades and downgrades"
        case .oneTimePurchases: "Non-consumables, non-renewing subscriptions, consumables"
        case .familySharing: "Family Sharing"
        case .willRenew: "willRenew"
        case .revocationCause: "Revocation cause"
        case .offers: "Offers"
        case .environment: "Environment"
        case .unknownValues: "Unknown values"
        case .customerStatus: "Customer status"
        case .evidence: "Evidence"
        }
    }

    /// What the rule says, as the decision table states it.
    public var statement: String {
        switch self {
        case .snapshots:
            """
            The same transactionId may arrive many times; the snapshot with the newest signedDate is the truth \
            (REFUND then REFUND_REVERSED restores access, RENEWAL_EXTENDED moves expiresDate, a stale snapshot \
            arriving late changes nothing). At an instant, the truth is the newest snapshot signed by then; a \
            snapshot signed later is used only where nothing signed by then is known (the earliest such), and may \
            take access away (a revocationDate at or before the instant) but never give it; either is reported. At \
            equal signedDates the snapshot that grants less wins (revoked, then the earlier revocation, upgraded, \
            the earlier expiry) and the conflict is reported. Renewal infos follow the same rules (no billing \
            retry grants less than billing retry, which grants less than a grace period, by its end). A snapshot \
            left out (another environment, none, missing or impossible values) makes the one kept untrusted unless \
            the kept one was signed by the instant and after it: the transaction grants nothing, the chain keeps \
            no grace period. A \
            transaction purchased after the instant of evaluation does not count yet. Time is decided in whole \
            milliseconds (Xcode signs fractions of one), each date taken in the direction that never grants: the \
            instant down (the report's asOf is the millisecond decided at), expiries, grace periods, revocations, \
            replacements and the notifications that end access down, purchases up; signedDates keep their values \
            for ordering snapshots, and the history keeps every value as it came. Every entry is placed in time \
            first: a notification without signedDate by its nested payloads' signedDate, a nested payload without \
            one by its notification's. An entry that still cannot be placed is reported (undated_entry): one that \
            ends access (a REVOKE, REFUND, EXPIRED or GRACE_PERIOD_EXPIRED) still ends what it names, from the \
            purchase of the transaction it carries; one that grants never grants; an undated snapshot beside the \
            dated one used for its transaction is used instead where it grants less at every instant (less as at a \
            tie, of the same product type, its access ending no later), never where they grant alike or where it \
            would grant more at some instant; an undated Apple status \
            is skipped; a single undated snapshot that competes with nothing is decided by its own dates. An \
            instant that is not finite or lies after 9999 decides nothing (invalid_instant): nothing grants and the \
            customer is inactive (undetermined); an instant before the App Store opened is a real question.
            """
        case .autoRenewableSubscriptions:
            """
            A subscription is the chain of transactions sharing an originalTransactionId. Access while \
            purchaseDate <= t < expiresDate and not revoked. The chain's newest renewal info describes its newest \
            transaction only (and only if signed since that transaction's purchase; where the newest was left out \
            or not trusted, it describes none of the others): after that transaction \
            expires, in billing retry with gracePeriodExpiresDate > t -> gracePeriod, with access; in billing \
            retry after or without grace -> billingRetry, no access; 60 days or more after expiry, or otherwise \
            -> expired. An EXPIRED notification (any subtype) or GRACE_PERIOD_EXPIRED signed by t, and since the \
            newest transaction's purchase, ends what it ends even if an older renewal info says otherwise. \
            DID_RENEW with BILLING_RECOVERY is a recovery and the evidence says so. Refunding a past renewal does \
            not end the current period; refunding the current one does.
            """
        case .upgradesAndDowngrades:
            """
            One subscription per group at a time. When a newer transaction of another product in the same chain \
            starts before an older one expires, the older one grants nothing from then on and its product is \
            `upgraded`, with or without an isUpgraded snapshot. A downgrade takes effect at the next renewal: the \
            higher product keeps access until its expiresDate, then is `expired` while the lower product renews; \
            later billing trouble belongs to the lower product.
            """
        case .oneTimePurchases:
            """
            Non-consumables: access from purchaseDate until revoked. Non-renewing subscriptions: access for the \
            catalog's duration from purchaseDate; with no duration known, no access (`undetermined`) and a \
            diagnostic, never unlimited access. Consumables: never an entitlement; a FAMILY_SHARED consumable is \
            invalid data and gets a diagnostic.
            """
        case .familySharing:
            """
            A FAMILY_SHARED transaction grants on its own, with canManage = false. Where one person holds both a \
            PURCHASED and a FAMILY_SHARED transaction for a product, the product is granted while either grants, \
            PURCHASED preferred; revoking one leaves the other. Where none grants, the newest transaction is \
            reported, and the customer's reason follows it.
            """
        case .willRenew:
            """
            For an auto-renewable subscription with access or in billing retry: the autoRenewStatus of the \
            chain's newest renewal info, for members too (never assumed true); null when no renewal info is \
            known; false once expired, revoked or upgraded; null for products that do not renew.
            """
        case .revocationCause:
            """
            revocationType decides where present (REFUND_FULL -> refund, REFUND_PRORATED -> proratedRefund, \
            FAMILY_REVOKE -> familyRevocation, ASSIGNMENT_REVOKE -> assignmentRevocation, other -> unknown with \
            a diagnostic). Without it the cause is inferred and marked so: PURCHASED with revocationDate -> \
            refund when revocationReason is 0, 1 or absent, else unknown; FAMILY_SHARED with revocationDate -> \
            refund when revocationReason is 1, else unknown; any other ownership -> unknown; a REVOKE \
            notification for a FAMILY_SHARED transaction without revocationDate -> familyRevocation at the \
            notification's signedDate, revoking that chain's transactions purchased up to it that still granted \
            then (a revocation ends only what it could still end: a copy that had expired or been replaced keeps its \
            own end). A later transaction grants again; a stale snapshot does not undo it. A snapshot that says it \
            is revoked (a revocationReason or revocationType) without a revocationDate, as Get Transaction History \
            answers for a member's copy after the member left, is revoked from its own signedDate, for its own \
            transactionId only, the cause inferred from those fields; a newer snapshot without them restores it. \
            Apple documents no such shape: reading the fields as saying nothing would let the copy grant.
            """
        case .offers:
            """
            `freeTrial` only for offerType 1 with FREE_TRIAL, or, where offerDiscountType is absent, offerType 1 \
            with an explicit price of 0 (an absent price is not a zero price); offerType 1 otherwise -> \
            `introductory`, never a trial; 2 `promotional`; 3 `offerCode`; 4 `winBack`; none `normal`.
            """
        case .environment:
            """
            The rebuild runs for one environment (default Production). Entries of another environment, or with \
            none, never grant and each is reported; a Sandbox entry in a Production history is an attack or a \
            bug, not a purchase. Xcode payloads evaluate under Xcode. A catalog that names the app's bundleId \
            makes every entry of another bundle grant nothing, each reported; without one, a history that names \
            more than one bundle id is an error diagnostic.
            """
        case .unknownValues:
            """
            An unknown notification type, subtype, ownership, product type or revocation value never crashes the \
            rebuild and never disappears: it yields a warning naming the raw value, and the transaction still \
            counts where its fields allow (an unknown product type grants only while an expiresDate bounds it). \
            A transaction missing its ids or purchaseDate never grants. Impossible values (an expiry or \
            revocation before the purchase, a revocation after the signedDate of the snapshot that reports it, an \
            empty identifier, a quantity below 1, a negative price, a date a rule reads that is not finite, lies \
            after 9999, or lies before the App Store opened on 2008-07-10, which can only be seconds mistaken for \
            milliseconds) never grant and are reported; the customer is then inactive (undetermined), not new. A \
            notification whose own signedDate is impossible is reported, and what it names is not trusted: its \
            transaction grants nothing and its renewal info gives no grace period. A non-renewing duration whose \
            end would lie after 9999 grants nothing (undetermined). Xcode's year-1 \
            originalPurchaseDate is documented (rule 9) and never read. What reading the input noticed is a \
            diagnostic naming its JSON path: decoded contents beside a signed string are ignored \
            (unsigned_contents_ignored, a warning); a signed string that cannot be decoded \
            (undecodable_signed_string, an error) is an entry that could not be read, and so is a signed string a \
            notification of the history holds without its decoded contents, since the rebuild never decodes one \
            (undecoded_signed_string, an error, unless the reader already reported it). It does not say which chain \
            it names (a REVOKE, a refund or an upgrade of any of them), so while the history holds one nothing \
            grants: each product that would grant is undetermined, and the customer is inactive (undetermined), \
            never new.
            """
        case .customerStatus:
            """
            `new` (no non-consumable, non-renewing or auto-renewable transaction by the instant), `active` (any \
            product grants) or `inactive`, with why, most actionable first: billingRetry (ask to update payment), \
            billingRetryFamilyMember (the member cannot), refunded, familyRevocation, revoked, expired, \
            undetermined. A catalog maps products to entitlements; without one each product id is its own \
            entitlement. With a catalog, even an empty one, a product it lacks unlocks nothing, and a transaction \
            whose type disagrees with the catalog's grants nothing; both are reported. Each entitlement has one \
            answer (`entitlementDecisions`), from one product: one that grants before one that does not, PURCHASED \
            before FAMILY_SHARED, the longest access (no end before any end), then the lowest product id; where \
            none grants, the product purchased last. Its billing issue is the earliest DID_FAIL_TO_RENEW signed \
            since the reported purchase, else the expiry, while in grace or billing retry; its unsubscribe date the \
            latest AUTO_RENEW_DISABLED while auto-renew stays off; a renewal info naming another product is a \
            pending change of plan. An entitlement no product unlocks has every field null.
            """
        case .evidence:
            """
            Every decision carries, in words, which transaction granted or ended access and which rule applied.
            """
        }
    }

    /// "rule N: Title", as the evidence and the decision table name a rule.
    public var description: String { "rule \(rawValue): \(title)" }
}
