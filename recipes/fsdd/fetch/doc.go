// Package fetch downloads the Free Spoken Digit Dataset (FSDD) for the
// recipe when no local copy is at hand: the upstream release v1.0.10 (commit
// d6938f9bf1545aa66d8489fc9f1385a7abd64282 of
// github.com/Jakobovski/free-spoken-digit-dataset; 3,000 recordings, six
// speakers) as GitHub's tar.gz of the tag. It is FSDD's description for
// recipes/fetch, which does the work: Fetch streams the archive through
// gzip and tar without holding it in memory or on disk, keeps only the
// archive's free-spoken-digit-dataset-1.0.10/recordings/ files, checks each
// against the SHA-256 list committed beside this file
// (SHA256SUMS.upstream-v1.0.10, embedded in the binary), and requires every
// listed file to be present; files the list does not name are left out
// with a warning, so the cache holds exactly the listed recordings. It
// unpacks into a hidden temporary folder beside the destination and renames
// that folder into place only once everything has been verified, so an
// interrupted, truncated or corrupted download never leaves a cache that
// looks complete. Failures (no network, a timeout, a checksum mismatch) come
// back as an *Error whose message names the URL and the exact commands to
// place the files by hand. Progress goes to an io.Writer as Kaldi-style LOG
// lines. The top-level run.sh looks for the corpus (--fsdd-dir,
// ../shared/data/fsdd, data/fsdd) before it calls `strode fetch-fsdd`.
//
// The recordings are licensed CC BY-SA 4.0 by Zohar Jackson et al.; see
// ../doc.go (package fsdd) for the attribution.
package fetch
