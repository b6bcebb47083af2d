import ArgumentParser
import Foundation
import ParleyServer

extension KeyCommand {
    /// `parley keys rotate-data --new-key FILE`: re-encrypts every sensitive answer at rest under a
    /// new data key (README "Rotating the data key").
    struct RotateData: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-encrypt every sealed answer with a new data key (resumable; safe while servers run).",
            discussion: """
                The current key (--data-key-file or $PARLEY_DATA_KEY_FILE, plus any previous ones) opens \
                what is stored; --new-key seals it again. Run it after restarting every server with \
                --data-key-file NEW --previous-data-key-file OLD. Exit status 0 means no value needs the \
                old key any more; a killed run is finished by running it again.
                """)

        @Option(help: "File with the new 32-byte data key (raw, base64 or hex).")
        var newKey: String

        @Option(help: "Rows re-encrypted per transaction.")
        var batchSize = 500

        @Option(help: "Seconds to pause after each batch, to spare a busy database.")
        var pause: Double = 0

        @OptionGroup var database: DatabaseOptions

        @OptionGroup var dataKeys: DataKeyOptions

        func validate() throws {
            guard (1...100_000).contains(batchSize) else { throw ValidationError("--batch-size must be 1 to 100000.") }
            guard pause >= 0, pause <= 3_600 else { throw ValidationError("--pause must be 0 to 3600 seconds.") }
        }

        func run() async throws {
            let old = try dataKeys.keyring()
            let keyring: DataKeyring
            do {
                keyring = try old.rotating(to: DataKeyring.readKey(newKey))
            } catch {
                throw ValidationError(error.description)
            }
            let pool = try database.makePool(maximumConnections: 1)
            defer { pool.shutdown() }
            var settings = DataKeyRotation.Settings()
            settings.batchSize = batchSize
            settings.pauseSeconds = pause
            let rotation = DataKeyRotation(pool: pool, keyring: keyring, settings: settings) { line in
                FileHandle.standardError.write(Data("rotate-data: \(line)\n".utf8))
            }
            let report: DataKeyRotation.Report
            do {
                report = try await rotation.run()
            } catch {
                FileHandle.standardError.write(Data("parley keys rotate-data: \(error)\n".utf8))
                throw ExitCode(1)
            }
            print("re-encrypted \(report.resealed) values with data key \(keyring.currentId ?? "")")
            guard report.remaining == 0 else {
                FileHandle.standardError.write(
                    Data(
                        """
                        parley keys rotate-data: \(report.remaining) values are still sealed with another key \
                        (written meanwhile by a server that seals with the old key): restart every server with \
                        --data-key-file \(newKey) and run this again.\n
                        """.utf8))
                throw ExitCode(3)
            }
        }
    }
}
