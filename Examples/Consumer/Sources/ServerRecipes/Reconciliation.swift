import FamilyEntitlements
import Foundation

extension AppStoreService {
    /// The periodic job: Apple's active subscribers against the service's, and the day's notification mix.
    func reconcile(
        appleActiveIds: Set<String>, storedActiveIds: Set<String>, recentNotifications: [NotificationPayload], now: Date
    ) {
        let drift = DriftReport(activeAtApple: appleActiveIds, activeInService: storedActiveIds)  // alert at 2 %
        if drift.needsAlert {
            alert(
                "entitlement drift \(drift.driftPercentage) %: \(drift.missingAtApple.count) granted without Apple, "
                    + "\(drift.missingInService.count) paying without access")
        }
        let day = NotificationCounts(recentNotifications, signedIn: now.addingTimeInterval(-86_400)..<now)
        metrics.record("family_revoke_rate", day.familySharedRevokeRate.fraction ?? 0)
        metrics.record("renewal_failure_rate", day.didFailToRenewRate.fraction ?? 0)
        metrics.record("unknown_notification_types", Double(day.unknownTypes.values.reduce(0, +)))
    }
}
