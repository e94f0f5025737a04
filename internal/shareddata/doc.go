// Package shareddata finds the project's reference data: outputs of real
// Kaldi tools (kaldi-golden, kaldi-mini) and the datasets the recipes run
// on. The whole of it lives in ../shared, beside the repository rather than
// in it; a subset small enough to keep in git (a few MB, chosen to cover
// every Kaldi format and feature type) lives in the repository's top-level
// testdata/ folder, with the same layout, file for file identical to
// ../shared (testdata/MANIFEST.md names each file's source and the Kaldi
// command that made it; TestMirrorMatchesShared checks both).
//
// Tests call Dir or File, which use ../shared when it is there and the
// repository's copy otherwise, so a bare clone still compares with real
// Kaldi output; a test that needs more than the repository's copy holds
// calls Full (or skips the cases whose files File cannot find). Both skip
// the test with a message naming what is missing. To see what a bare clone
// sees, run the tests with STRODE_SHARED pointing at a folder that does not
// exist.
package shareddata
