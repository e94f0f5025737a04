package speechocean762

import (
	"bytes"
	_ "embed"
	"fmt"
	"time"

	"github.com/strode-asr/strode/recipes/fetch"
)

// The release the recipe uses: openslr resource 101.
const (
	DefaultURL    = "https://www.openslr.org/resources/101/speechocean762.tar.gz"
	ArchiveFolder = "speechocean762"
	SumsFile      = "SHA256SUMS.upstream"
)

//go:embed SHA256SUMS.upstream
var upstreamSums []byte

// UpstreamSums returns the SHA-256 of every upstream file the recipe uses
// (both halves: WAVE/SPEAKERnnnn/*.WAV, train/*, test/*,
// resource/lexicon.txt; 5,258 files), as committed beside this file and
// embedded in the binary.
func UpstreamSums() fetch.Sums {
	s, err := fetch.ParseSums(bytes.NewReader(upstreamSums), SumsFile, false)
	if err != nil {
		panic("speechocean762: the embedded " + SumsFile + " is malformed: " + err.Error())
	}
	return s
}

// Corpus is speechocean762 for recipes/fetch: the openslr tarball, whose
// speechocean762/ folder is kept (the listed files only: the scores, the
// README and the like are left out).
var Corpus = &fetch.Corpus{
	Name:          "speechocean762",
	Title:         "speechocean762",
	Command:       "fetch-speechocean762",
	URL:           DefaultURL,
	ArchiveName:   "speechocean762.tar.gz",
	ArchiveFolder: ArchiveFolder,
	Markers:       []string{"WAVE", "train/text", "train/wav.scp", "resource/lexicon.txt"},
	SumsName:      SumsFile,
	SumsRepo:      "recipes/speechocean762",
	DefaultSums:   UpstreamSums,
	Timeout:       2 * time.Hour, // several hundred MB: 5,245 WAV files
	Hint:          "(or point strode fetch-speechocean762 --corpus-dir at a copy that has WAVE/, train/ and resource/lexicon.txt).",
	NotEmptyHint:  "(move it away, or pass it as --corpus-dir if it is a copy of speechocean762)",
	Source:        source,
}

func source(s fetch.SourceInfo) string {
	return fmt.Sprintf(`speechocean762 (openslr resource 101): %d files (WAVE/, train/, test/, resource/lexicon.txt).
Downloaded by strode fetch-speechocean762 on %s from
  %s
every file checked against %s.
Junbo Zhang, Zhiwen Zhang, Yongqing Wang, Zhiyong Yan, Qiong Song, Yukai Huang, Ke Li, Daniel Povey
and Yujun Wang, "speechocean762: An Open-Source Non-native English Speech Corpus For Pronunciation
Assessment", Interspeech 2021 (arXiv:2104.01378); https://www.openslr.org/101/,
https://github.com/jimbozhang/speechocean762. Free for commercial and non-commercial use
(Apache License 2.0, as the release states); attribute the corpus and its authors.
`, s.Files, s.When.Format(time.RFC3339), s.URL, s.Sums)
}
