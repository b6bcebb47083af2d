// swift-tools-version: 6.1
import PackageDescription

/// Settings every Parley target shares (STYLE.md, convention 3).
let sharedSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Parley",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ParleyCore", targets: ["ParleyCore"]),
        .library(name: "ParleyDSL", targets: ["ParleyDSL"]),
        .library(name: "ParleyClient", targets: ["ParleyClient"]),
        .executable(name: "parley", targets: ["parley"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Docs only: `swift package generate-documentation` for the DocC catalogs (deploy/docs-build).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries (DESIGN.md "Targets").
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // epoll and eventfd, which Swift's Glibc module leaves out (ParleyHTTP's event loop).
        .systemLibrary(name: "CEpoll"),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),

        // The pure contract: no I/O, no Glibc, libpq or OpenSSL.
        .target(name: "ParleyCore", swiftSettings: sharedSettings),
        .target(name: "ParleyDSL", dependencies: ["ParleyCore"], swiftSettings: sharedSettings),
        // What app teams link beside ParleyCore: sessions, local checks, retries. Foundation only.
        .target(name: "ParleyClient", dependencies: ["ParleyCore"], swiftSettings: sharedSettings),
        .target(
            name: "Flows",
            dependencies: ["ParleyCore", "ParleyDSL"],
            path: "Flows",
            exclude: ["json"],
            swiftSettings: sharedSettings
        ),

        // Infrastructure that knows nothing about flows.
        .target(
            name: "ParleyHTTP",
            dependencies: ["CEpoll", "COpenSSL", .product(name: "Logging", package: "swift-log")],
            swiftSettings: sharedSettings
        ),
        .target(
            name: "ParleyPostgres",
            dependencies: ["CLibPQ", .product(name: "Logging", package: "swift-log")],
            swiftSettings: sharedSettings
        ),
        .target(
            name: "ParleyCrypto",
            dependencies: ["COpenSSL"],
            swiftSettings: sharedSettings
        ),

        // The web studio's HTML, CSS and ES modules (web/), embedded as Swift by deploy/studio-embed.
        .target(name: "ParleyStudio", exclude: ["web"], swiftSettings: sharedSettings),

        // The service and the command-line tool.
        .target(
            name: "ParleyServer",
            dependencies: [
                "ParleyCore", "ParleyHTTP", "ParleyPostgres", "ParleyCrypto", "ParleyStudio",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSettings
        ),
        .executableTarget(
            name: "parley",
            dependencies: [
                "ParleyCore", "ParleyDSL", "Flows", "ParleyHTTP", "ParleyPostgres", "ParleyCrypto",
                "ParleyServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSettings
        ),
        .executableTarget(
            name: "parley-bench",
            dependencies: [
                "ParleyCore", "ParleyHTTP", "ParleyPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/Benchmarks",
            swiftSettings: sharedSettings
        ),

        // What every test target shares: process runners, raw HTTP clients, the test database,
        // the service harness (in process or as child processes). Only test targets depend on it.
        .target(
            name: "ParleyTestSupport",
            dependencies: [
                "ParleyCore", "ParleyHTTP", "ParleyPostgres", "ParleyServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ParleyTestSupport",
            swiftSettings: sharedSettings
        ),

        // Tests mirror targets (STYLE.md, convention 7).
        .testTarget(
            name: "ParleyCoreTests",
            dependencies: ["ParleyCore"],
            resources: [.copy("Fixtures")],
            swiftSettings: sharedSettings
        ),
        .testTarget(
            name: "ParleyDSLTests",
            dependencies: ["ParleyCore", "ParleyDSL", "Flows", "ParleyTestSupport"],
            swiftSettings: sharedSettings
        ),
        .testTarget(
            name: "ParleyHTTPTests",
            dependencies: ["ParleyHTTP", "ParleyTestSupport"],
            swiftSettings: sharedSettings
        ),
        .testTarget(
            name: "ParleyPostgresTests",
            dependencies: ["ParleyPostgres", "ParleyTestSupport"],
            swiftSettings: sharedSettings
        ),
        .testTarget(
            name: "ParleyServerTests",
            dependencies: [
                "ParleyServer", "ParleyCore", "ParleyHTTP", "ParleyPostgres", "ParleyCrypto", "ParleyTestSupport",
                "ParleyStudio", "ParleyClient", "Flows",
            ],
            swiftSettings: sharedSettings
        ),
        .testTarget(
            name: "ParleyClientTests",
            dependencies: ["ParleyClient", "ParleyCore", "Flows"],
            swiftSettings: sharedSettings
        ),
        .testTarget(
            name: "ParleyCryptoTests",
            dependencies: ["ParleyCrypto"],
            swiftSettings: sharedSettings
        ),
        .testTarget(
            name: "ParleyCLITests",
            dependencies: ["ParleyCore", "Flows", "ParleyTestSupport"],
            swiftSettings: sharedSettings
        ),
    ]
)
