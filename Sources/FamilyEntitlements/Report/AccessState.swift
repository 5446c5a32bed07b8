/// Where a product stands for the customer at the instant of evaluation.
public enum AccessState: String, Hashable, Sendable, Codable, CaseIterable {
    /// A transaction grants access now.
    case active
    /// The renewal failed and the customer keeps access in the billing grace period.
    case gracePeriod
    /// The renewal failed and the App Store retries billing; no access until it recovers.
    case billingRetry
    /// The last period ended and nothing renews it.
    case expired
    /// The App Store refunded or revoked the transaction, or Family Sharing ended.
    case revoked
    /// Another product of the same subscription group replaced this one.
    case upgraded
    /// The data does not say how long access lasts (a non-renewing subscription without a catalog duration, an
    /// auto-renewable transaction without an expiry); no access.
    case undetermined

    /// Whether the state gives access.
    public var grantsAccess: Bool { self == .active || self == .gracePeriod }
}

/// Why the App Store took access away.
public enum RevocationCause: String, Hashable, Sendable, Codable, CaseIterable {
    /// A full refund (`REFUND_FULL`, or inferred from an older payload).
    case refund
    /// A prorated refund (`REFUND_PRORATED`).
    case proratedRefund
    /// Family Sharing ended for this person: sharing stopped, or the purchaser or member left the family.
    case familyRevocation
    /// An organisation withdrew an assigned purchase (`ASSIGNMENT_REVOKE`).
    case assignmentRevocation
    /// The payload does not say, or says something this library does not know.
    case unknown
}

/// Why the App Store took access away, and whether the payload stated it or the rebuild inferred it: one value, so
/// that an inferred flag never stands without a cause.
public enum RevocationCauseFinding: Hashable, Sendable {
    /// `revocationType` states the cause.
    case stated(RevocationCause)
    /// The cause is inferred: from `revocationReason` and the ownership of an older payload, or from a REVOKE
    /// notification.
    case inferred(RevocationCause)

    /// The cause, stated or inferred.
    public var cause: RevocationCause {
        switch self {
        case .stated(let cause), .inferred(let cause): cause
        }
    }

    /// Whether the cause was inferred rather than stated by `revocationType`.
    public var isInferred: Bool {
        if case .inferred = self { return true }
        return false
    }
}

/// How the customer pays for the period that the reported transaction covers.
public enum PricingPeriod: String, Hashable, Sendable, Codable, CaseIterable {
    /// No offer.
    case normal
    /// A free trial: an introductory offer with `FREE_TRIAL`, or with an explicit price of 0 and no discount type.
    case freeTrial
    /// A paid introductory offer (`PAY_AS_YOU_GO` or `PAY_UP_FRONT`): never a trial.
    case introductory
    /// A promotional offer.
    case promotional
    /// An offer code.
    case offerCode
    /// A win-back offer.
    case winBack
}

/// Whether the customer is new, has access, or had access and lost it: what a launch screen shows.
public enum CustomerStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// No non-consumable, non-renewing or auto-renewable transaction ever.
    case new
    /// At least one product grants access.
    case active
    /// Purchases exist but none grants access now.
    case inactive
}

/// Where the customer stands, with why an inactive customer has no access: one value, so that a reason never stands
/// beside an active or new customer.
public enum CustomerStanding: Hashable, Sendable {
    /// No non-consumable, non-renewing or auto-renewable transaction ever.
    case new
    /// At least one product grants access.
    case active
    /// Purchases exist but none grants access now, for this reason.
    case inactive(InactiveReason)

    /// The standing's status, without its reason.
    public var status: CustomerStatus {
        switch self {
        case .new: .new
        case .active: .active
        case .inactive: .inactive
        }
    }

    /// Why the customer has no access; nil unless inactive.
    public var inactiveReason: InactiveReason? {
        if case .inactive(let reason) = self { return reason }
        return nil
    }
}

/// Why an inactive customer has no access, ordered (`<`) by what a launch screen should act on first.
public enum InactiveReason: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// Billing failed on the customer's own subscription: ask them to update their payment method.
    case billingRetry
    /// Billing failed on the family organiser's subscription: the member cannot fix it and should not be asked.
    case billingRetryFamilyMember
    /// A refund ended access.
    case refunded
    /// Family Sharing ended for this customer.
    case familyRevocation
    /// Access was revoked for another or an unknown cause.
    case revoked
    /// The subscription ended.
    case expired
    /// The data does not say how long access lasts.
    case undetermined

    /// How soon a launch screen should act on the reason: 0 first. Stated here rather than read from the order of
    /// the cases, so that adding a case cannot reorder the priorities.
    public var priority: Int {
        switch self {
        case .billingRetry: 0
        case .billingRetryFamilyMember: 1
        case .refunded: 2
        case .familyRevocation: 3
        case .revoked: 4
        case .expired: 5
        case .undetermined: 6
        }
    }

    public static func < (lhs: InactiveReason, rhs: InactiveReason) -> Bool {
        lhs.priority < rhs.priority
    }
}
