// Package testbin gives tests the strode binary they run (recipes end to
// end, shell scripts, subcommands in pipes) without each test building its
// own. `go test ./...` runs every package's tests in a separate process,
// several at once, and each used to link its own copy of cmd/strode; Strode
// builds it once into a cache folder keyed by a hash of everything the build
// reads (the module's Go sources and embedded files, go.mod, go.sum, the Go
// version and build settings, and the checkout's path), so every later call, in this process or
// another, reuses it until a source changes. A file lock serializes the
// build, and the binary is built under a temporary name and renamed, so a
// process never sees a half-written binary.
//
// $STRODE, when set, names the binary to use instead (as in the recipes'
// scripts); $STRODE_TESTBIN_CACHE moves the cache folder (default: the
// user's cache folder, strode-testbin/), where entries unused for two days
// are removed.
package testbin
