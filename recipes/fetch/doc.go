// Package fetch finds a corpus for a recipe, or downloads and verifies it:
// the part of every recipe's front end that Kaldi's local/download_and_untar.sh
// scripts do, with a checksum for every file. A Corpus describes one
// release (its URL, the top folder of its tar.gz, which files to keep, a
// committed SHA-256 list of them); Locate looks for a complete copy in an
// explicit folder (a recipe's --corpus-dir), then in ../shared/data/NAME,
// then in the cache data/NAME, and only then calls Fetch to download into
// the cache.
//
// Fetch streams the archive through gzip and tar without holding it in
// memory or on disk, writes only the files the SHA-256 list names (each
// checked as it is written; files the list does not name are left out and
// counted), requires every listed file to be present, and reads the gzip
// stream to its end so that its CRC and length are checked. It unpacks into
// a hidden temporary folder beside the destination and renames that folder
// into place only once everything has been verified, so an interrupted,
// truncated or corrupted download never leaves a cache that looks complete
// (a later run clears the leftovers of one that was killed outright).
// Failures (no network, a stall, the overall timeout, a checksum mismatch,
// a truncated archive) come back at once as an *Error whose message names
// the URL and the exact commands to place the files by hand. Progress goes
// to an io.Writer as Kaldi-style LOG lines.
//
// Archive members are only ever written under names the SHA-256 list
// holds, which are checked to be clean relative paths, so a hostile archive
// cannot write outside the destination; links and other special members
// are never created. recipes/fsdd (strode fetch-fsdd) and
// recipes/speechocean762 (strode fetch-speechocean762) are its corpora.
package fetch
