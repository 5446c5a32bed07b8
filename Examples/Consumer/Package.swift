// swift-tools-version: 6.0
import PackageDescription

// A downstream package, as a team that uses FamilyEntitlements would write it: its own access ledger in a library,
// tests that load the shipped fixtures and build their own app's payloads through FamilyEntitlementsTestSupport, and
// the server recipes of docs/integrating.md and docs/operations.md compiled against stand-ins for Apple's library, and
// a reference store for them on SQLite with a multi-process stress test.
let package = Package(
    name: "Consumer",
    dependencies: [
        .package(name: "FamilyEntitlements", path: "../..")
    ],
    targets: [
        .target(
            name: "MemberAccess",
            dependencies: [.product(name: "FamilyEntitlements", package: "FamilyEntitlements")]
        ),
        .testTarget(
            name: "MemberAccessTests",
            dependencies: [
                "MemberAccess",
                .product(name: "FamilyEntitlements", package: "FamilyEntitlements"),
                .product(name: "FamilyEntitlementsTestSupport", package: "FamilyEntitlements"),
            ]
        ),
        // Not Apple's library: the signatures the recipes call, at a named commit of it (see its README.md).
        .target(name: "AppStoreServerLibrary", exclude: ["README.md"]),
        .target(
            name: "ServerRecipes",
            dependencies: [
                "AppStoreServerLibrary", .product(name: "FamilyEntitlements", package: "FamilyEntitlements"),
            ]
        ),
        .testTarget(
            name: "ServerRecipesTests",
            dependencies: [
                "ServerRecipes",
                "AppStoreServerLibrary",
                .product(name: "FamilyEntitlements", package: "FamilyEntitlements"),
                .product(name: "FamilyEntitlementsTestSupport", package: "FamilyEntitlements"),
            ]
        ),
        // A reference store for the recipes on SQLite, the system's library: not a dependency of FamilyEntitlements.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(
            name: "ReferenceStore",
            dependencies: [
                "CSQLite", "ServerRecipes", .product(name: "FamilyEntitlements", package: "FamilyEntitlements"),
            ]
        ),
        // Delivers notifications from a file through the recipes into a store: several at once for the stress test.
        .executableTarget(
            name: "reference-store-writer",
            dependencies: [
                "ReferenceStore", "ServerRecipes", .product(name: "FamilyEntitlements", package: "FamilyEntitlements"),
                .product(name: "FamilyEntitlementsTestSupport", package: "FamilyEntitlements"),
            ]
        ),
        .testTarget(
            name: "ReferenceStoreTests",
            dependencies: [
                "ReferenceStore", "ServerRecipes", "reference-store-writer",
                .product(name: "FamilyEntitlements", package: "FamilyEntitlements"),
                .product(name: "FamilyEntitlementsTestSupport", package: "FamilyEntitlements"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
