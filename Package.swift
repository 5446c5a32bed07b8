// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "FamilyEntitlements",
    products: [
        .library(name: "FamilyEntitlements", targets: ["FamilyEntitlements"]),
        .library(name: "FamilyEntitlementsTestSupport", targets: ["FamilyEntitlementsTestSupport"]),
        .executable(name: "entitlements", targets: ["entitlements"]),
    ],
    targets: [
        .target(name: "FamilyEntitlements"),
        .target(
            name: "FamilyEntitlementsTestSupport",
            dependencies: ["FamilyEntitlements"]
        ),
        .executableTarget(
            name: "entitlements",
            dependencies: ["FamilyEntitlements"]
        ),
        .executableTarget(
            name: "entitlements-bench",
            dependencies: ["FamilyEntitlements", "FamilyEntitlementsTestSupport"]
        ),
        .testTarget(
            name: "FamilyEntitlementsTests",
            dependencies: ["FamilyEntitlements", "FamilyEntitlementsTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
