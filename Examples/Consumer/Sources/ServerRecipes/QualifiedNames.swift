import AppStoreServerLibrary
import FamilyEntitlements

/// Where a file imports both libraries, name the module of every type both declare.
func sameProductType(_ ours: FamilyEntitlements.ProductType, _ apples: AppStoreServerLibrary.ProductType) -> Bool {
    ours.rawValue == apples.rawValue  // both keep Apple's raw value, "Auto-Renewable Subscription" and the others
}
