// Stand-ins with the signatures of apple/app-store-server-library-swift at 8468d10f77cf2000f88de8fa722c5f6238ba1265:
// Sources/AppStoreServerLibrary/SignedDataVerifier.swift, ChainVerifier.swift and Models/. No verification happens.

import Foundation

/// Apple's verifier of signed App Store data (stand-in: it refuses everything).
public struct SignedDataVerifier: Sendable {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Apple's spelling.
    public enum ConfigurationError: Error, Hashable, Sendable {
        case INVALID_APP_APPLE_ID
    }

    public init(
        rootCertificates: [Data], bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment,
        enableOnlineChecks: Bool
    ) throws {
        guard !(environment == .production && appAppleId == nil) else {
            throw ConfigurationError.INVALID_APP_APPLE_ID
        }
    }

    public func verifyAndDecodeRenewalInfo(
        signedRenewalInfo: String
    ) async -> VerificationResult<JWSRenewalInfoDecodedPayload> {
        .invalid(.VERIFICATION_FAILURE)
    }

    public func verifyAndDecodeTransaction(
        signedTransaction: String
    ) async -> VerificationResult<JWSTransactionDecodedPayload> {
        .invalid(.VERIFICATION_FAILURE)
    }

    public func verifyAndDecodeNotification(
        signedPayload: String
    ) async -> VerificationResult<ResponseBodyV2DecodedPayload> {
        .invalid(.VERIFICATION_FAILURE)
    }

    public func verifyAndDecodeAppTransaction(signedAppTransaction: String) async -> VerificationResult<AppTransaction>
    {
        .invalid(.VERIFICATION_FAILURE)
    }
}

public enum VerificationResult<T: Hashable & Sendable>: Hashable, Sendable {
    case valid(T)
    case invalid(VerificationError)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// Apple's spelling.
public enum VerificationError: Hashable, Sendable {
    case INVALID_JWT_FORMAT
    case INVALID_CERTIFICATE
    case VERIFICATION_FAILURE
    case RETRYABLE_VERIFICATION_FAILURE
    case INVALID_APP_IDENTIFIER
    case INVALID_ENVIRONMENT
}

public enum AppStoreEnvironment: String, Decodable, Encodable, Hashable, Sendable {
    case sandbox = "Sandbox"
    case production = "Production"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"
}

/// Apple's decoded notification (stand-in: its fields are left out).
public struct ResponseBodyV2DecodedPayload: Decodable, Encodable, Hashable, Sendable {}

/// Apple's decoded transaction (stand-in: its fields are left out).
public struct JWSTransactionDecodedPayload: Decodable, Encodable, Hashable, Sendable {}

/// Apple's decoded renewal info (stand-in: its fields are left out).
public struct JWSRenewalInfoDecodedPayload: Decodable, Encodable, Hashable, Sendable {}

/// Apple's decoded app transaction (stand-in: its fields are left out).
public struct AppTransaction: Decodable, Encodable, Hashable, Sendable {}

/// Apple's product type, whose name FamilyEntitlements also declares.
public enum ProductType: String, Decodable, Encodable, Hashable, Sendable {
    case autoRenewableSubscription = "Auto-Renewable Subscription"
    case nonConsumable = "Non-Consumable"
    case consumable = "Consumable"
    case nonRenewingSubscription = "Non-Renewing Subscription"
}
