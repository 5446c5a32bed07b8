import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The App Store Server API bodies a ledger absorbs: every signed string verified with the intake first.
struct LedgerAPIBodyTests {
    static let intake = NotificationIntake(
        policy: .production(bundleId: "org.familyentitlements.demo", appAppleId: 6_450_000_001),
        verifier: FakeJWSVerifier())

    static let first = Given.subscription("7101", from: 0, to: 30)
    static let second = Given.subscription("7102", original: "7101", from: 30, to: 60)
    static let renewal = Given.renewal("7101", signed: 30)

    @Test func transactionHistoryPage() async throws {
        let signer = FakeJWSSigner()
        let page = TransactionHistoryResponse(
            hasMore: false, signedTransactions: [try signer.sign(Self.first), try signer.sign(Self.second)])
        var ledger = CustomerLedger()
        let changes = try await ledger.absorb(page, verifiedBy: Self.intake)
        #expect(changes.map(\.code) == ["added", "added"])
        #expect(ledger.transactions == [Self.first, Self.second])
        let again = try await ledger.absorb(page, verifiedBy: Self.intake)
        #expect(again.map(\.code) == ["unchanged", "unchanged"])
    }

    @Test func subscriptionStatuses() async throws {
        let signer = FakeJWSSigner()
        let statuses = SubscriptionStatusesResponse(
            environment: .production, bundleId: "org.familyentitlements.demo",
            data: [
                SubscriptionGroupStatus(
                    subscriptionGroupIdentifier: "21000001",
                    lastTransactions: [
                        LastTransactionsItem(
                            status: .active, originalTransactionId: "7101",
                            signedTransactionInfo: try signer.sign(Self.second),
                            signedRenewalInfo: try signer.sign(Self.renewal))
                    ])
            ])
        var ledger = CustomerLedger()
        let changes = try await ledger.absorb(statuses, verifiedBy: Self.intake)
        #expect(changes.map(\.code) == ["added", "added", "added"])
        #expect(ledger.renewalInfos == [Self.renewal])
        #expect(
            ledger.subscriptionStatuses == [
                SubscriptionStatusSnapshot(
                    originalTransactionId: "7101", status: .active, signedDate: Given.day(30), environment: .production,
                    bundleId: "org.familyentitlements.demo", subscriptionGroupIdentifier: "21000001")
            ])
        #expect(ledger.rebuild(asOf: Given.day(45)).products.first?.willRenew == true)
    }

    @Test func transactionInfo() async throws {
        var ledger = CustomerLedger()
        let answer = TransactionInfoResponse(signedTransactionInfo: try FakeJWSSigner().sign(Self.first))
        #expect(try await ledger.absorb(answer, verifiedBy: Self.intake).map(\.code) == ["added"])
        #expect(try await ledger.absorb(TransactionInfoResponse(), verifiedBy: Self.intake).isEmpty)
    }

    /// One string refused: nothing of the body is absorbed, and the rejection names the string.
    @Test func refusedStringAbsorbsNothing() async throws {
        let signer = FakeJWSSigner()
        var sandbox = Self.second
        sandbox.environment = .sandbox
        let page = TransactionHistoryResponse(
            signedTransactions: [try signer.sign(Self.first), try signer.sign(sandbox)])
        var ledger = CustomerLedger()
        do {
            _ = try await ledger.absorb(page, verifiedBy: Self.intake)
            Issue.record("a Sandbox transaction was absorbed in Production")
        } catch {
            #expect(error.code == .wrongEnvironment)
            #expect(error.path == "signedTransactions[1].environment")
        }
        #expect(ledger.count == 0)
        var renewal = Self.renewal
        renewal.environment = .sandbox
        let statuses = SubscriptionStatusesResponse(
            data: [
                SubscriptionGroupStatus(lastTransactions: [
                    LastTransactionsItem(signedRenewalInfo: try signer.sign(renewal))
                ])
            ])
        do {
            _ = try await ledger.absorb(statuses, verifiedBy: Self.intake)
            Issue.record("a Sandbox renewal info was absorbed in Production")
        } catch {
            #expect(error.code == .wrongEnvironment)
            #expect(error.path == "data[0].lastTransactions[0].signedRenewalInfo.environment")
        }
        #expect(ledger.count == 0)
    }

    /// A verifier that cannot complete: retry later, nothing absorbed.
    @Test func verifierOutage() async throws {
        let intake = NotificationIntake(
            policy: Self.intake.policy, verifier: FakeJWSVerifier(outage: VerificationUnavailable(reason: "offline")))
        let page = TransactionHistoryResponse(signedTransactions: [try FakeJWSSigner().sign(Self.first)])
        var ledger = CustomerLedger()
        do {
            _ = try await ledger.absorb(page, verifiedBy: intake)
            Issue.record("absorbed without verification")
        } catch {
            #expect(error.outcome == .retryLater)
        }
        #expect(ledger.count == 0)
    }
}
