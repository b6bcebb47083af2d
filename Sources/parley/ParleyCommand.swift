import ArgumentParser

/// The `parley` command-line tool (DESIGN.md "Targets").
@main
struct ParleyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "Author, lint, bundle, publish and serve server-driven UI flows.",
        subcommands: [
            LintCommand.self, ValidateCommand.self, RenderCommand.self, BundleCommand.self, KeygenCommand.self,
            ServeCommand.self, MigrateCommand.self, PublishCommand.self, TokenCommand.self, KeyCommand.self,
            SessionCommand.self, ReleaseCommand.self, ExportCommand.self, SamplesCommand.self, SchemasCommand.self,
            PruneCommand.self, CoreCasesCommand.self,
        ]
    )
}
