// Every file of this target sees the shared test support (harness, clients, process runners)
// without importing it, so tests written against the types they had before the move compile.
@_exported public import ParleyTestSupport
