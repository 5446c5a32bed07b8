extension DriftReport {
    /// Builds a drift report one subscriber at a time, holding only the subscribers that drifted: for a fleet
    /// compared as it streams by, where keeping every active subscriber in two sets would grow with the fleet.
    ///
    /// Each subscriber is added once, with what each side says. A subscriber can be compared by activity (active or
    /// not on each side) or by entitlements, where one active on both sides still drifts when the sides disagree on
    /// an entitlement; such a subscriber can then be in both `missingInService` and `missingAtApple`, and counts
    /// once in `drifted`.
    public struct Accumulator: Sendable {
        private var activeAtApple = 0
        private var activeInService = 0
        private var subscribers = 0
        private var missingInService: Set<Subscriber> = []
        private var missingAtApple: Set<Subscriber> = []
        private let alertThreshold: Double

        /// An empty accumulator; `alertThreshold` is a percentage, finite and not negative.
        public init(alertThreshold: Double = DriftReport.defaultAlertThreshold) {
            precondition(alertThreshold.isFinite && alertThreshold >= 0, "the alert threshold is a percentage >= 0")
            self.alertThreshold = alertThreshold
        }

        /// Adds a subscriber by activity on each side.
        public mutating func add(_ subscriber: Subscriber, activeAtApple apple: Bool, activeInService service: Bool) {
            add(
                subscriber, activeAtApple: apple, activeInService: service, missingInService: apple && !service,
                missingAtApple: service && !apple)
        }

        /// Adds a subscriber by the entitlements each side grants them: missing in the service when Apple grants one
        /// the service lacks, missing at Apple when the service grants one Apple does not.
        public mutating func add<Entitlement: Hashable>(
            _ subscriber: Subscriber, entitlementsAtApple apple: Set<Entitlement>,
            entitlementsInService service: Set<Entitlement>
        ) {
            add(
                subscriber, activeAtApple: !apple.isEmpty, activeInService: !service.isEmpty,
                missingInService: !apple.isSubset(of: service), missingAtApple: !service.isSubset(of: apple))
        }

        private mutating func add(
            _ subscriber: Subscriber, activeAtApple apple: Bool, activeInService service: Bool,
            missingInService: Bool, missingAtApple: Bool
        ) {
            if apple { activeAtApple += 1 }
            if service { activeInService += 1 }
            if apple || service { subscribers += 1 }
            if missingInService { self.missingInService.insert(subscriber) }
            if missingAtApple { self.missingAtApple.insert(subscriber) }
        }

        /// The report of the subscribers added so far.
        public var report: DriftReport {
            DriftReport(
                counts: (activeAtApple, activeInService, subscribers), missingInService: missingInService,
                missingAtApple: missingAtApple, alertThreshold: alertThreshold)
        }
    }
}
