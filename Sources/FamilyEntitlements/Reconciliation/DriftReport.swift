/// How far the service's active entitlements have drifted from the subscribers Apple reports active.
///
/// Built from two sets of subscriber identifiers (user accounts, or `originalTransactionId`s: the caller chooses, the
/// same kind on both sides). A subscriber active at Apple but not in the service pays without access; one active in
/// the service but not at Apple has access nobody pays for, as when expired rows are left active. The percentage is
/// the share of subscribers active on either side on which the two sides disagree; past `alertThreshold` (2 % by
/// default) the report asks for an alert.
public struct DriftReport<Subscriber: Hashable & Sendable>: Hashable, Sendable {
    /// The default alert threshold: 2 % of active subscribers.
    public static var defaultAlertThreshold: Double { 2 }

    /// Subscribers Apple reports active.
    public let activeAtApple: Int
    /// Subscribers the service's stored entitlements say are active.
    public let activeInService: Int
    /// Subscribers active on either side.
    public let subscribers: Int
    /// Active at Apple, not in the service: paying customers without access.
    public let missingInService: Set<Subscriber>
    /// Active in the service, not at Apple: access that Apple's data does not support.
    public let missingAtApple: Set<Subscriber>
    /// The alert threshold, in percent of `subscribers`.
    public let alertThreshold: Double

    /// Compares the two sets; `alertThreshold` is a percentage, finite and not negative.
    public init(
        activeAtApple apple: Set<Subscriber>,
        activeInService service: Set<Subscriber>,
        alertThreshold: Double = DriftReport.defaultAlertThreshold
    ) {
        precondition(alertThreshold.isFinite && alertThreshold >= 0, "the alert threshold is a percentage >= 0")
        self.activeAtApple = apple.count
        self.activeInService = service.count
        self.subscribers = apple.union(service).count
        self.missingInService = apple.subtracting(service)
        self.missingAtApple = service.subtracting(apple)
        self.alertThreshold = alertThreshold
    }

    /// Built by `Accumulator` from counts and the subscribers that drifted.
    init(
        counts: (apple: Int, service: Int, subscribers: Int), missingInService: Set<Subscriber>,
        missingAtApple: Set<Subscriber>, alertThreshold: Double
    ) {
        self.activeAtApple = counts.apple
        self.activeInService = counts.service
        self.subscribers = counts.subscribers
        self.missingInService = missingInService
        self.missingAtApple = missingAtApple
        self.alertThreshold = alertThreshold
    }

    /// Subscribers on which the two sides disagree, each counted once (one compared by entitlements can be missing
    /// on both sides; one compared by activity never is).
    public var drifted: Int {
        missingInService.count + missingAtApple.count - missingInService.intersection(missingAtApple).count
    }

    /// `drifted` as a percentage of `subscribers`; 0 when nobody is active on either side.
    public var driftPercentage: Double {
        subscribers == 0 ? 0 : Double(drifted) * 100 / Double(subscribers)
    }

    /// Whether the drift reaches the alert threshold; never when nothing drifted.
    public var needsAlert: Bool {
        drifted > 0 && Double(drifted) * 100 >= alertThreshold * Double(subscribers)
    }
}
