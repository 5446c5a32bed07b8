import FamilyEntitlements
import Foundation
import Testing

/// Apple's sample payloads from its Swift server library, kept outside the package in `../shared/apple-samples`.
///
/// They are read in place and never copied into the project; where the folder is absent the suite is skipped.
enum AppleSamples {
    /// `Tests/FamilyEntitlementsTests/AppleSampleTests.swift` -> package root -> `../shared/apple-samples/swift`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("../shared/apple-samples/swift")
        .standardized

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.path) }

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }

    /// The names of the files in a folder of the samples, hidden files left out.
    static func files(in folder: String) throws -> Set<String> {
        let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
        return Set(names.filter { !$0.hasPrefix(".") })
    }
}

/// One file of `models/`, with what the library must make of it.
struct ModelSample: CustomTestStringConvertible, Sendable {
    let file: String
    let summary: String
    /// The kind the library claims the file is, recognised from its members; nil for a file of no kind it reads.
    var kind: AppStoreDocument.Kind? = nil
    let check: @Sendable (Data) throws -> Void

    var testDescription: String { "models/\(file): \(summary)" }

    /// A decoded signed payload: decodes as `T`, is recognised as `kind` from its keys, and has the fields checked.
    static func payload<T: AppStorePayload>(
        _ file: String, as type: T.Type, kind: AppStoreDocument.Kind, _ summary: String,
        check: @escaping @Sendable (T) throws -> Void
    ) -> ModelSample {
        ModelSample(file: file, summary: "decodes as \(T.self): \(summary)", kind: kind) { data in
            let payload = try T(jsonData: data)
            let document = try AppStoreDocument(data: data)
            #expect(document.kind == kind)
            #expect(document.value(as: T.self) == payload)
            try check(payload)
        }
    }

    /// A file this library does not read: a JSON object, so the table's reason can be trusted, that passes as no kind
    /// the library claims (`unrecognised_document`), so that none of its members is lost to a misreading.
    static func notEntitlementPayload(_ file: String, _ reason: String) -> ModelSample {
        ModelSample(
            file: file, summary: "not an entitlement payload (\(reason)); a JSON object of no kind the library reads"
        ) { data in
            let value = try JSONDecoder().decode(JSONValue.self, from: data)
            guard case .object(let members) = value else {
                Issue.record("models/\(file) is not a JSON object: \(value)")
                return
            }
            #expect(!members.isEmpty)
            let error = decodingError { try AppStoreDocument(data: data) }
            #expect(error?.code == .unrecognisedDocument, "models/\(file) passes as a kind the library claims")
        }
    }

    static let all: [ModelSample] = signedPayloads + apiBodies + notEntitlementPayloads

    static let signedPayloads: [ModelSample] = [
        .payload(
            "signedTransaction.json", as: TransactionPayload.self, kind: .transaction,
            "purchased subscription, price 10990 USD, paid introductory offer PAY_AS_YOU_GO, revoked for an app issue"
        ) { transaction in
            #expect(transaction.transactionId == "23456")
            #expect(transaction.originalTransactionId == "12345")
            #expect(transaction.type == .autoRenewable)
            #expect(transaction.inAppOwnershipType == .purchased)
            #expect(transaction.price == 10990)
            #expect(transaction.currency == "USD")
            #expect(transaction.offerType == .introductory)
            #expect(transaction.offerDiscountType == .payAsYouGo)
            #expect(transaction.offerPeriod == "P1Y")
            #expect(transaction.transactionReason == .purchase)
            #expect(transaction.revocationReason == .appIssue)
            #expect(wholeMilliseconds(transaction.revocationDate) == 1_698_148_950_000)
            #expect(wholeMilliseconds(transaction.purchaseDate) == 1_698_148_900_000)
            #expect(wholeMilliseconds(transaction.expiresDate) == 1_698_149_000_000)
            #expect(transaction.isUpgraded == true)
            #expect(transaction.environment == .localTesting)
            #expect(transaction.appAccountToken?.uuidString.lowercased() == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
            #expect(transaction.appTransactionId == "71134")
            #expect(transaction.billingPlanType == "MONTHLY")
            #expect(transaction.commitmentInfo?.billingPeriodNumber == 3)
            #expect(transaction.commitmentInfo?.totalBillingPeriods == 12)
            #expect(transaction.commitmentInfo?.commitmentPrice == 119_880)
            #expect(wholeMilliseconds(transaction.commitmentInfo?.commitmentExpiresDate) == 1_698_150_000_000)
            let commerce = transaction.advancedCommerceInfo
            #expect(
                commerce?.descriptors
                    == AdvancedCommerceDescriptors(description: "Premium Plan", displayName: "Premium"))
            #expect(commerce?.estimatedTax == 1500)
            #expect(commerce?.period == .oneMonth)
            #expect(commerce?.requestReferenceId == "ref-12345")
            #expect(commerce?.taxCode == "TAX_CODE_1")
            #expect(commerce?.taxExclusivePrice == 8490)
            // The exact decimal 0.15: 15 hundredths, which no Double holds.
            #expect(commerce?.taxRate == Decimal(sign: .plus, exponent: -2, significand: 15))
            #expect(commerce?.unknownMembers == [:])
            let refund = AdvancedCommerceRefund(
                refundAmount: 5000, refundDate: Date(timeIntervalSince1970: 1_698_149_100),
                refundReason: .fulfillmentIssue, refundType: .prorated)
            #expect(
                commerce?.items == [
                    AdvancedCommerceTransactionItem(
                        sku: "com.example.sku.premium", description: "Premium feature", displayName: "Premium Feature",
                        price: 9990, refunds: [refund], revocationDate: Date(timeIntervalSince1970: 1_698_149_200))
                ])
        },
        .payload(
            "signedTransactionWithRevocation.json", as: TransactionPayload.self, kind: .transaction,
            "prorated refund, revocationType REFUND_PRORATED, revocationPercentage 50000 (50 %)"
        ) { transaction in
            #expect(transaction.revocationType == .refundProrated)
            #expect(transaction.revocationPercentage == 50000)
            #expect(transaction.revocationReason == .appIssue)
            #expect(wholeMilliseconds(transaction.revocationDate) == 1_698_148_950_000)
            #expect(transaction.price == 10990)
            #expect(transaction.currency == "USD")
            #expect(transaction.advancedCommerceInfo == nil)
            #expect(transaction.commitmentInfo == nil)
        },
        .payload(
            "signedRenewalInfo.json", as: RenewalInfoPayload.self, kind: .renewalInfo,
            "in billing retry, renewal price 9990 USD, promotional offer PAY_AS_YOU_GO, win-back offers listed"
        ) { renewal in
            #expect(renewal.originalTransactionId == "12345")
            #expect(renewal.autoRenewStatus == .on)
            #expect(renewal.autoRenewProductId == "com.example.product.2")
            #expect(renewal.expirationIntent == .customerCancelled)
            #expect(renewal.isInBillingRetryPeriod == true)
            #expect(renewal.priceIncreaseStatus == .notResponded)
            #expect(wholeMilliseconds(renewal.gracePeriodExpiresDate) == 1_698_148_900_000)
            #expect(wholeMilliseconds(renewal.renewalDate) == 1_698_148_850_000)
            #expect(renewal.offerType == .promotional)
            #expect(renewal.offerIdentifier == "abc.123")
            #expect(renewal.offerDiscountType == .payAsYouGo)
            #expect(renewal.renewalPrice == 9990)
            #expect(renewal.currency == "USD")
            #expect(renewal.eligibleWinBackOfferIds == ["eligible1", "eligible2"])
            #expect(renewal.appAccountToken?.uuidString.lowercased() == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
            #expect(renewal.renewalBillingPlanType == "MONTHLY")
            #expect(renewal.commitmentInfo?.commitmentAutoRenewStatus == .on)
            #expect(renewal.commitmentInfo?.commitmentRenewalPrice == 9990)
            let commerce = renewal.advancedCommerceInfo
            #expect(commerce?.consistencyToken == "token-abc-123")
            #expect(
                commerce?.descriptors
                    == AdvancedCommerceDescriptors(description: "Premium Plan", displayName: "Premium"))
            #expect(commerce?.period == .oneMonth)
            #expect(commerce?.requestReferenceId == "ref-12345")
            #expect(commerce?.taxCode == "TAX_CODE_1")
            #expect(commerce?.unknownMembers == [:])
            #expect(
                commerce?.items == [
                    AdvancedCommerceRenewalItem(
                        sku: "com.example.sku.premium", description: "Premium feature", displayName: "Premium Feature",
                        price: 9990,
                        priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo(
                            dependentSKUs: ["com.example.sku.1", "com.example.sku.2"], price: 12990, status: .pending))
                ])
        },
        .payload(
            "appTransaction.json", as: AppTransactionPayload.self, kind: .appTransaction,
            "LocalTesting app download 531412, preordered, device verification nonce a UUID"
        ) { app in
            #expect(app.receiptType == .localTesting)
            #expect(app.appAppleId == 531_412)
            #expect(app.bundleId == "com.example")
            #expect(app.applicationVersion == "1.2.3")
            #expect(app.versionExternalIdentifier == 512)
            #expect(app.originalApplicationVersion == "1.1.2")
            #expect(wholeMilliseconds(app.receiptCreationDate) == 1_698_148_900_000)
            #expect(wholeMilliseconds(app.originalPurchaseDate) == 1_698_148_800_000)
            #expect(wholeMilliseconds(app.preorderDate) == 1_698_148_700_000)
            #expect(app.deviceVerificationNonce?.uuidString.lowercased() == "48ccfa42-7431-4f22-9908-7e88983e105a")
            #expect(app.appTransactionId == "71134")
            #expect(app.originalPlatform == "iOS")
        },
        .payload(
            "signedNotification.json", as: NotificationPayload.self, kind: .notification,
            "SUBSCRIBED INITIAL_BUY, status 1; placeholder nested strings rejected at data.signedTransactionInfo"
        ) { notification in
            #expect(notification.notificationType == .subscribed)
            #expect(notification.subtype == .initialBuy)
            #expect(notification.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
            #expect(notification.version == "2.0")
            #expect(wholeMilliseconds(notification.signedDate) == 1_698_148_900_000)
            #expect(notification.data?.environment == .localTesting)
            #expect(notification.data?.appAppleId == 41234)
            #expect(notification.data?.bundleVersion == "1.2.3")
            #expect(notification.data?.status == .active)
            #expect(notification.data?.signedTransactionInfo == "signed_transaction_info_value")
            #expect(notification.data?.signedRenewalInfo == "signed_renewal_info_value")
            #expect(notification.data?.transactionInfo == nil)
            let error = decodingError { try notification.decodingNestedPayloadsUnverified() }
            #expect(error?.code == .malformedJWS)
            #expect(error?.path == "data.signedTransactionInfo")
            var warnings: [PayloadDecodingWarning] = []
            let kept = notification.decodingNestedPayloadsUnverified(reportingFailuresIn: &warnings)
            #expect(kept == notification, "the placeholders are kept as sent, nothing decoded from them")
            #expect(warnings.map(\.path) == ["data.signedTransactionInfo", "data.signedRenewalInfo"])
            #expect(warnings.allSatisfy { $0.code == .undecodableSignedString })
        },
        .payload(
            "signedConsumptionRequestNotification.json", as: NotificationPayload.self, kind: .notification,
            "CONSUMPTION_REQUEST without subtype, reason UNINTENDED_PURCHASE"
        ) { notification in
            #expect(notification.notificationType == .consumptionRequest)
            #expect(notification.subtype == nil)
            #expect(notification.data?.consumptionRequestReason == .unintendedPurchase)
            #expect(notification.data?.status == .active)
        },
        .payload(
            "signedSummaryNotification.json", as: NotificationPayload.self, kind: .notification,
            "RENEWAL_EXTENSION SUMMARY, 5 succeeded and 2 failed, no data"
        ) { notification in
            #expect(notification.notificationType == .renewalExtension)
            #expect(notification.subtype == .summary)
            #expect(notification.data == nil)
            #expect(notification.summary?.succeededCount == 5)
            #expect(notification.summary?.failedCount == 2)
            #expect(notification.summary?.storefrontCountryCodes == ["CAN", "USA", "MEX"])
            #expect(notification.summary?.requestIdentifier == "efb27071-45a4-4aca-9854-2a1e9146f265")
            #expect(notification.summary?.productId == "com.example.product")
            #expect(notification.summary?.environment == .localTesting)
            #expect(notification.summary?.appAppleId == 41234)
        },
        .payload(
            "signedExternalPurchaseTokenNotification.json", as: NotificationPayload.self, kind: .notification,
            "EXTERNAL_PURCHASE_TOKEN UNREPORTED with its token, no data"
        ) { notification in
            #expect(notification.notificationType == .externalPurchaseToken)
            #expect(notification.subtype == .unreported)
            #expect(notification.data == nil)
            #expect(notification.externalPurchaseToken?.externalPurchaseId == "b2158121-7af9-49d4-9561-1f588205523e")
            #expect(wholeMilliseconds(notification.externalPurchaseToken?.tokenCreationDate) == 1_698_148_950_000)
            #expect(notification.externalPurchaseToken?.appAppleId == 55555)
            #expect(notification.externalPurchaseToken?.bundleId == "com.example")
        },
        .payload(
            "signedExternalPurchaseTokenSandboxNotification.json", as: NotificationPayload.self, kind: .notification,
            "EXTERNAL_PURCHASE_TOKEN UNREPORTED whose token id starts SANDBOX_"
        ) { notification in
            #expect(notification.notificationType == .externalPurchaseToken)
            #expect(notification.subtype == .unreported)
            #expect(
                notification.externalPurchaseToken?.externalPurchaseId
                    == "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e")
            #expect(notification.externalPurchaseToken?.appAppleId == 55555)
        },
        .payload(
            "signedRescindConsentNotification.json", as: NotificationPayload.self, kind: .notification,
            "RESCIND_CONSENT carries appData, not data"
        ) { notification in
            #expect(notification.notificationType == .rescindConsent)
            #expect(notification.subtype == nil)
            #expect(notification.data == nil)
            #expect(notification.appData?.appAppleId == 41234)
            #expect(notification.appData?.bundleId == "com.example")
            #expect(notification.appData?.environment == .localTesting)
            #expect(notification.appData?.signedAppTransactionInfo == "signed_app_transaction_info_value")
        },
    ]

    static let apiBodies: [ModelSample] = [
        .payload(
            "transactionHistoryResponse.json", as: TransactionHistoryResponse.self, kind: .transactionHistory,
            "history page of 2; its placeholder strings are rejected at signedTransactions[0]"
        ) { history in
            #expect(history.revision == "revision_output")
            #expect(history.hasMore == true)
            #expect(history.bundleId == "com.example")
            #expect(history.appAppleId == 323_232)
            #expect(history.environment == .localTesting)
            #expect(history.signedTransactions == ["signed_transaction_value", "signed_transaction_value2"])
            let error = decodingError { try history.decodeTransactionsUnverified() }
            #expect(error?.code == .malformedJWS)
            #expect(error?.path == "signedTransactions[0]")
            var warnings: [PayloadDecodingWarning] = []
            #expect(history.decodeTransactionsUnverified(reportingFailuresIn: &warnings) == [])
            #expect(warnings.map(\.path) == ["signedTransactions[0]", "signedTransactions[1]"])
        },
        .payload(
            "transactionInfoResponse.json", as: TransactionInfoResponse.self, kind: .transactionInfo,
            "Get Transaction Info; its placeholder string is kept, rejected at signedTransactionInfo"
        ) { body in
            #expect(body.signedTransactionInfo == "signed_transaction_info_value")
            let error = decodingError { try body.decodeTransactionUnverified() }
            #expect(error?.code == .malformedJWS)
            #expect(error?.path == "signedTransactionInfo")
        },
        .payload(
            "getNotificationHistoryResponse.json", as: NotificationHistoryResponse.self, kind: .notificationHistory,
            "Get Notification History page of 2 with send attempts; placeholders kept, reported per item"
        ) { page in
            #expect(page.paginationToken == "57715481-805a-4283-8499-1c19b5d6b20a")
            #expect(page.hasMore == true)
            #expect(page.nextPaginationToken == "57715481-805a-4283-8499-1c19b5d6b20a")
            let items = try #require(page.notificationHistory)
            #expect(items.map(\.signedPayload) == ["signed_payload_one", "signed_payload_two"])
            #expect(
                items.map { $0.sendAttempts?.map(\.sendAttemptResult) } == [
                    [.noResponse, .success], [.circularRedirect],
                ])
            #expect(
                items.map { $0.sendAttempts?.map { wholeMilliseconds($0.attemptDate) } } == [
                    [1_698_148_900_000, 1_698_148_950_000], [1_698_148_800_000],
                ])
            var warnings: [PayloadDecodingWarning] = []
            #expect(page.decodeNotificationsUnverified(reportingFailuresIn: &warnings) == [])
            #expect(
                warnings.map(\.path) == [
                    "notificationHistory[0].signedPayload", "notificationHistory[1].signedPayload",
                ])
        },
        .payload(
            "extendSubscriptionRenewalDateResponse.json", as: ExtendRenewalDateResponse.self, kind: .renewalExtension,
            "renewal date of 2312412 extended to 1698148900000, success true"
        ) { response in
            #expect(response.originalTransactionId == "2312412")
            #expect(response.webOrderLineItemId == "9993")
            #expect(response.success == true)
            #expect(wholeMilliseconds(response.effectiveDate) == 1_698_148_900_000)
        },
        .payload(
            "advancedCommerceRequestRefundResponse.json", as: TransactionInfoResponse.self, kind: .transactionInfo,
            "an Advanced Commerce refund response has Get Transaction Info's one member and meaning: read as one, "
                + "no member lost"
        ) { body in
            #expect(body.signedTransactionInfo == "signed_transaction_info_value")
        },
        .payload(
            "getAllSubscriptionStatusesResponse.json", as: SubscriptionStatusesResponse.self,
            kind: .subscriptionStatuses,
            "two groups with statuses active, revoked, expired; placeholders rejected at "
                + "data[0].lastTransactions[0].signedTransactionInfo"
        ) { statuses in
            #expect(statuses.environment == .localTesting)
            #expect(statuses.appAppleId == 5_454_545)
            #expect(statuses.data?.map(\.subscriptionGroupIdentifier) == ["sub_group_one", "sub_group_two"])
            #expect(
                statuses.data?.map { $0.lastTransactions?.map(\.status) } == [[.active, .revoked], [.expired]])
            #expect(
                statuses.data?.first?.lastTransactions?.map(\.originalTransactionId) == ["3749183", "5314314134"])
            let error = decodingError { try statuses.decodeLastTransactionsUnverified() }
            #expect(error?.code == .malformedJWS)
            #expect(error?.path == "data[0].lastTransactions[0].signedTransactionInfo")
        },
        .payload(
            "transactionHistoryResponseWithMalformedEnvironment.json", as: TransactionHistoryResponse.self,
            kind: .transactionHistory, "unknown environment LocalTestingxxx is kept with isKnown false"
        ) { history in
            #expect(history.environment?.rawValue == "LocalTestingxxx")
            #expect(history.environment?.isKnown == false)
            #expect(history.appAppleId == 323_232)
            #expect(history.signedTransactions?.count == 2)
        },
        ModelSample(
            file: "transactionHistoryResponseWithMalformedAppAppleId.json",
            summary: "appAppleId \"blue\" is a string, so decoding fails: wrongType at appAppleId"
        ) { data in
            let error = decodingError { try TransactionHistoryResponse(jsonData: data) }
            #expect(error?.code == .wrongType)
            #expect(error?.path == "appAppleId")
            let documentError = decodingError { try AppStoreDocument(data: data) }
            #expect(documentError?.code == .wrongType)
            #expect(documentError?.path == "appAppleId")
        },
    ]

    static let notEntitlementPayloads: [ModelSample] =
        [
            ("appData.json", "a RESCIND_CONSENT notification's appData alone; read through the notification"),
            ("decodedRealtimeRequest.json", "a Retention Messaging realtime request"),
            ("appTransactionInfoResponse.json", "a Get App Transaction Info body wrapping one signed app transaction"),
            ("getRefundHistoryResponse.json", "a Get Refund History page; refunds are read from the transactions"),
            ("lookupOrderIdResponse.json", "a Look Up Order ID body"),
            ("getTestNotificationStatusResponse.json", "a test notification's send attempts"),
            ("requestTestNotificationResponse.json", "a test notification token"),
            ("extendRenewalDateForAllActiveSubscribersResponse.json", "a mass renewal-date extension request id"),
            ("getStatusOfSubscriptionRenewalDateExtensionsResponse.json", "a mass renewal-date extension status"),
            ("getDefaultMessageResponse.json", "a Retention Messaging default message"),
            ("getImageListResponse.json", "a Retention Messaging image list"),
            ("getMessageListResponse.json", "a Retention Messaging message list"),
            ("getRealtimeUrlResponse.json", "a Retention Messaging realtime URL"),
            ("performanceTestResponse.json", "a Retention Messaging performance test start"),
            ("performanceTestResultResponse.json", "a Retention Messaging performance test result"),
            ("apiException.json", "an API error body, 5000000"),
            ("apiTooManyRequestsException.json", "an API error body, 4290000 rate limit"),
            ("apiUnknownError.json", "an API error body with an undocumented code"),
            ("appTransactionDoesNotExistError.json", "an API error body, 4040019"),
            ("familyTransactionNotSupportedError.json", "an API error body, 4000185 family transactions unsupported"),
            ("invalidAppAccountTokenUUIDError.json", "an API error body, 4000183"),
            ("invalidTransactionIdError.json", "an API error body, 4000006"),
            ("transactionIdNotFoundError.json", "an API error body, 4040010"),
            ("transactionIdNotOriginalTransactionId.json", "an API error body, 4000187"),
        ].map { notEntitlementPayload($0.0, $0.1) }
        + [
            "advancedCommerceDescriptors.json", "advancedCommerceOffer.json",
            "advancedCommerceOneTimeChargeCreateRequest.json", "advancedCommerceOneTimeChargeItem.json",
            "advancedCommerceRequestInfo.json", "advancedCommerceRequestRefundItem.json",
            "advancedCommerceRequestRefundRequest.json",
            "advancedCommerceSubscriptionCancelRequest.json", "advancedCommerceSubscriptionCancelResponse.json",
            "advancedCommerceSubscriptionChangeMetadataDescriptors.json",
            "advancedCommerceSubscriptionChangeMetadataItem.json",
            "advancedCommerceSubscriptionChangeMetadataRequest.json",
            "advancedCommerceSubscriptionChangeMetadataResponse.json", "advancedCommerceSubscriptionCreateItem.json",
            "advancedCommerceSubscriptionCreateRequest.json", "advancedCommerceSubscriptionMigrateDescriptors.json",
            "advancedCommerceSubscriptionMigrateItem.json", "advancedCommerceSubscriptionMigrateRenewalItem.json",
            "advancedCommerceSubscriptionMigrateRequest.json", "advancedCommerceSubscriptionMigrateResponse.json",
            "advancedCommerceSubscriptionModifyAddItem.json", "advancedCommerceSubscriptionModifyChangeItem.json",
            "advancedCommerceSubscriptionModifyDescriptors.json", "advancedCommerceSubscriptionModifyInAppRequest.json",
            "advancedCommerceSubscriptionModifyPeriodChange.json", "advancedCommerceSubscriptionModifyRemoveItem.json",
            "advancedCommerceSubscriptionPriceChangeItem.json", "advancedCommerceSubscriptionPriceChangeRequest.json",
            "advancedCommerceSubscriptionPriceChangeResponse.json",
            "advancedCommerceSubscriptionReactivateInAppRequest.json",
            "advancedCommerceSubscriptionReactivateItem.json", "advancedCommerceSubscriptionRevokeRequest.json",
            "advancedCommerceSubscriptionRevokeResponse.json",
        ].map { notEntitlementPayload($0, "an Advanced Commerce API request or response part") }
}

/// One compact JWS file of `mock_signed_data/` or `xcode/`, with what its payload must decode to.
struct SignedSample: CustomTestStringConvertible, Sendable {
    let file: String
    let summary: String
    let kind: AppStoreDocument.Kind
    /// Whether `AppStoreDocument(data:)` can tell the kind from the payload's keys alone.
    let kindFromKeys: Bool
    /// The header's `kid`; Xcode signs with `Apple_Xcode_Key`.
    let keyIdentifier: String?
    let hasCertificateChain: Bool
    let check: @Sendable (String, AppStoreDocument) throws -> Void

    var testDescription: String { "\(file): \(summary)" }

    static func jws<T: AppStorePayload>(
        _ file: String, as type: T.Type, kind: AppStoreDocument.Kind, kindFromKeys: Bool = true,
        keyIdentifier: String? = nil, hasCertificateChain: Bool = true, _ summary: String,
        check: @escaping @Sendable (T) throws -> Void
    ) -> SignedSample {
        SignedSample(
            file: file, summary: "\(T.self): \(summary)", kind: kind, kindFromKeys: kindFromKeys,
            keyIdentifier: keyIdentifier, hasCertificateChain: hasCertificateChain
        ) { compact, document in
            let payload = try #require(document.value(as: T.self))
            #expect(try decodeUnverifiedJWS(compact, as: T.self) == payload)
            try check(payload)
        }
    }

    static let all: [SignedSample] = [
        .jws(
            "mock_signed_data/transactionInfo", as: TransactionPayload.self, kind: .transaction, kindFromKeys: false,
            "Sandbox, com.example, signed 1672956154000; too few keys to tell its kind"
        ) { transaction in
            #expect(transaction.environment == .sandbox)
            #expect(transaction.bundleId == "com.example")
            #expect(wholeMilliseconds(transaction.signedDate) == 1_672_956_154_000)
            #expect(transaction.transactionId == nil)
        },
        .jws(
            "mock_signed_data/renewalInfo", as: RenewalInfoPayload.self, kind: .renewalInfo, kindFromKeys: false,
            "Sandbox, signed 1672956154000; too few keys to tell its kind"
        ) { renewal in
            #expect(renewal.environment == .sandbox)
            #expect(wholeMilliseconds(renewal.signedDate) == 1_672_956_154_000)
            #expect(renewal.autoRenewStatus == nil)
        },
        .jws(
            "mock_signed_data/testNotification", as: NotificationPayload.self, kind: .notification,
            "TEST for app 1234 in Sandbox"
        ) { notification in
            #expect(notification.notificationType == .test)
            #expect(notification.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
            #expect(wholeMilliseconds(notification.signedDate) == 1_681_314_324_000)
            #expect(notification.data?.appAppleId == 1234)
            #expect(notification.data?.environment == .sandbox)
            #expect(notification.data?.bundleId == "com.example")
        },
        .jws(
            "mock_signed_data/wrongBundleId", as: NotificationPayload.self, kind: .notification,
            "TEST for com.example.wrong; unverified decoding does not judge the bundle, a verifier does"
        ) { notification in
            #expect(notification.notificationType == .test)
            #expect(notification.data?.bundleId == "com.example.wrong")
        },
        .jws(
            "mock_signed_data/missingX5CHeaderClaim", as: NotificationPayload.self, kind: .notification,
            hasCertificateChain: false,
            "header has x5cwrong, no x5c: a verifier must reject it; unverified decoding still reads the TEST"
        ) { notification in
            #expect(notification.notificationType == .test)
            #expect(notification.data?.bundleId == "com.example")
        },
        .jws(
            "xcode/xcode-signed-transaction", as: TransactionPayload.self, kind: .transaction,
            keyIdentifier: "Apple_Xcode_Key",
            "Xcode introductory purchase, fractional milliseconds kept below a millisecond, no price"
        ) { transaction in
            #expect(transaction.environment == .xcode)
            #expect(transaction.inAppOwnershipType == .purchased)
            #expect(transaction.type == .autoRenewable)
            #expect(transaction.offerType == .introductory)
            #expect(transaction.transactionReason == .purchase)
            #expect(transaction.transactionId == "0")
            #expect(transaction.originalTransactionId == "0")
            #expect(transaction.productId == "pass.premium")
            #expect(transaction.storefront == "USA")
            #expect(transaction.storefrontId == "143441")
            #expect(transaction.quantity == 1)
            #expect(transaction.isUpgraded == false)
            #expect(transaction.price == nil)
            #expect(transaction.currency == nil)
            let purchase = try #require(transaction.purchaseDate).timeIntervalSince1970 * 1000
            #expect(abs(purchase - 1_697_679_936_049.7297) < 0.001)
            let signed = try #require(transaction.signedDate).timeIntervalSince1970 * 1000
            #expect(abs(signed - 1_697_679_936_056.485) < 0.001)
        },
        .jws(
            "xcode/xcode-signed-renewal-info", as: RenewalInfoPayload.self, kind: .renewalInfo,
            keyIdentifier: "Apple_Xcode_Key",
            "Xcode pass.premium renewing, fractional milliseconds kept, extra keys ignored"
        ) { renewal in
            #expect(renewal.environment == .xcode)
            #expect(renewal.productId == "pass.premium")
            #expect(renewal.autoRenewProductId == "pass.premium")
            #expect(renewal.autoRenewStatus == .on)
            #expect(renewal.originalTransactionId == "0")
            let renewalDate = try #require(renewal.renewalDate).timeIntervalSince1970 * 1000
            #expect(abs(renewalDate - 1_700_358_336_049.7297) < 0.001)
            let signed = try #require(renewal.signedDate).timeIntervalSince1970 * 1000
            #expect(abs(signed - 1_697_679_936_711.0747) < 0.001)
        },
        .jws(
            "xcode/xcode-signed-app-transaction", as: AppTransactionPayload.self, kind: .appTransaction,
            keyIdentifier: "Apple_Xcode_Key",
            "Xcode receipt, year-1 originalPurchaseDate -62135769600000, unknown requestDate ignored"
        ) { app in
            #expect(app.receiptType == .xcode)
            #expect(app.appAppleId == nil)
            #expect(app.bundleId == "com.example.naturelab.backyardbirds.example")
            #expect(app.applicationVersion == "1")
            #expect(wholeMilliseconds(app.originalPurchaseDate) == -62_135_769_600_000)
            let created = try #require(app.receiptCreationDate).timeIntervalSince1970 * 1000
            #expect(abs(created - 1_697_680_122_257.447) < 0.001)
            #expect(app.deviceVerificationNonce?.uuidString.lowercased() == "48c8b92d-ce0d-4229-bedf-e61b4f9cfc92")
        },
    ]
}

/// A file beside the JWS samples that is not a JWS at all.
struct NotJWSSample: CustomTestStringConvertible, Sendable {
    let file: String
    let reason: String

    var testDescription: String { "\(file): \(reason) -> malformedJWS, and not a JSON document either" }

    static let all: [NotJWSSample] = [
        NotJWSSample(
            file: "mock_signed_data/legacyTransaction",
            reason: "a pre-StoreKit 2 receipt, base64 of an old-style plist with no dots"),
        NotJWSSample(
            file: "xcode/xcode-app-receipt-empty", reason: "a base64 PKCS#7 app receipt without purchases, no dots"),
        NotJWSSample(
            file: "xcode/xcode-app-receipt-with-transaction",
            reason: "a base64 PKCS#7 app receipt with one purchase, no dots"),
    ]
}

@Suite(
    "Apple's sample payloads",
    .enabled(if: AppleSamples.isPresent, "Apple's samples are read from ../shared/apple-samples, absent here"))
struct AppleSampleTests {
    @Test("each models/ file is what the table says", arguments: ModelSample.all)
    func model(_ sample: ModelSample) throws {
        try sample.check(try AppleSamples.data("models/" + sample.file))
    }

    @Test(
        "the tool prints, for each models/ file of a kind it claims, the kind and the values the library checked",
        .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"),
        arguments: ModelSample.all.filter { $0.kind != nil })
    func toolAgrees(_ sample: ModelSample) throws {
        let data = try AppleSamples.data("models/" + sample.file)
        let result = try EntitlementsTool.run(["decode", "-"], input: data)
        #expect(result.status == 0, "\(result.standardError)")
        let printed = try JSONDecoder().decode([String: JSONValue].self, from: Data(result.standardOutput.utf8))
        #expect(printed["kind"] == .string(sample.kind?.rawValue ?? ""))
        let document = try AppStoreDocument(data: data)
        let expected = try JSONDecoder().decode(JSONValue.self, from: document.jsonData())
        #expect(printed["document"] == expected)
    }

    @Test("every models/ file is classified, so a new sample is noticed")
    func everyModelIsClassified() throws {
        let files = try AppleSamples.files(in: "models")
        let classified = ModelSample.all.map(\.file)
        #expect(classified.count == Set(classified).count, "a file is classified twice")
        #expect(files.subtracting(classified).sorted() == [], "not classified")
        #expect(Set(classified).subtracting(files).sorted() == [], "classified but absent")
    }

    @Test("a signed sample decodes, unverified, into its kind", arguments: SignedSample.all)
    func signed(_ sample: SignedSample) throws {
        let data = try AppleSamples.data(sample.file)
        let compact = String(decoding: data, as: UTF8.self)
        let header = try UnverifiedJWS(compact: compact).header()
        #expect(header.alg == "ES256")
        #expect(header.kid == sample.keyIdentifier)
        #expect((header.x5c?.isEmpty == false) == sample.hasCertificateChain)
        let document = try AppStoreDocument(data: data, as: sample.kind)
        #expect(document.kind == sample.kind)
        if sample.kindFromKeys {
            #expect(try AppStoreDocument(data: data) == document)
        } else {
            #expect(decodingError { try AppStoreDocument(data: data) }?.code == .unrecognisedDocument)
        }
        try sample.check(compact, document)
    }

    @Test("a receipt beside the JWS samples is rejected, not misread", arguments: NotJWSSample.all)
    func notJWS(_ sample: NotJWSSample) throws {
        let data = try AppleSamples.data(sample.file)
        let jwsError = decodingError { try UnverifiedJWS(compact: String(decoding: data, as: UTF8.self)) }
        #expect(jwsError?.code == .malformedJWS)
        #expect(jwsError?.path == "")
        let documentError = decodingError { try AppStoreDocument(data: data) }
        #expect(documentError?.code == .malformedJSON)
        #expect(documentError?.path == "")
    }

    @Test("every file beside the JWS samples is classified")
    func everySignedSampleIsClassified() throws {
        let files =
            try AppleSamples.files(in: "mock_signed_data").map { "mock_signed_data/" + $0 }
            + AppleSamples.files(in: "xcode").map { "xcode/" + $0 }
        let classified = SignedSample.all.map(\.file) + NotJWSSample.all.map(\.file)
        #expect(classified.count == Set(classified).count, "a file is classified twice")
        #expect(Set(files).subtracting(classified).sorted() == [], "not classified")
        #expect(Set(classified).subtracting(files).sorted() == [], "classified but absent")
    }
}
