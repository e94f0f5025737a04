package chime5

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// punctuation is what json2text.py deletes from the words before lower-casing.
var punctuation = strings.NewReplacer(`"`, "", ".", "", "?", "", ",", "", ":", "", ";", "", "!", "")

// inaudible is prepare_data.sh's `sed -e "s/\[inaudible[- 0-9]*\]/[inaudible]/g"`:
// "[inaudible 0:00:58.96]" has become "[inaudible 0005896]" by then (the
// colons and the point are gone) and is collapsed to "[inaudible]".
var inaudible = regexp.MustCompile(`\[inaudible[- 0-9]*\]`)

// isPythonSpace is str.split()'s notion of white space: Go's unicode.IsSpace
// plus the four ASCII information separators Python also splits on.
func isPythonSpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

// baseID is json2text.py's worn-microphone utterance id,
// speaker_session_LOCATION-start-end with the times in centiseconds as
// "{:07d}": e.g. P05_S02_KITCHEN-0004060-0004382 (train: _NOLOCATION-).
func baseID(e *Entry) string {
	return fmt.Sprintf("%s_%s_%s-%07d-%07d", e.Speaker, e.Session, e.Location, e.Start, e.End)
}

// transcriptLine is the line of text.orig for an entry: json2text.py's
// output line passed through prepare_data.sh's three seds and the trailing
// space removal (`s/  *$//`). It returns the id and the normalised words.
// The seds run on the whole line, so a leading "- " of the words goes with
// the space after the id (" - " -> " "), exactly as in Kaldi.
func transcriptLine(id, words string) (string, string) {
	w := strings.ToLower(punctuation.Replace(words))
	w = strings.Join(strings.FieldsFunc(w, isPythonSpace), " ")
	line := id + " " + w
	line = inaudible.ReplaceAllLiteralString(line, "[inaudible]")
	line = strings.ReplaceAll(line, " - ", " ")
	line = strings.ReplaceAll(line, "mm-", "mm")
	line = strings.TrimRight(line, " ")
	gotID, text, _ := strings.Cut(line, " ")
	return gotID, text
}

// NormaliseWords returns the words of a transcription as they appear in
// Kaldi's text file: punctuation (".?,:;!) deleted, lower case, white space
// collapsed, "[inaudible ...]" collapsed to "[inaudible]", " - " to " ",
// "mm-" to "mm". Bracketed non-speech tokens ([noise], [laughs],
// [inaudible]) are kept: Kaldi's lexicon gives each its own silence phone.
func NormaliseWords(words string) string {
	_, text := transcriptLine("x", words)
	return text
}

// channelID puts the channel after the location, as prepare_data.sh's
// sed 's/-/\.L-/' does: P05_S02_KITCHEN-0004060-0004382 ->
// P05_S02_KITCHEN.L-0004060-0004382.
func channelID(id, channel string) string {
	i := strings.IndexByte(id, '-')
	return id[:i] + "." + channel + id[i:]
}

// recordingID is the recording of a channel of a participant's binaural
// file, speaker_session.channel (P05_S02.L): the wav.scp key prepare_data.sh
// makes from S02_P05.wav, and what its sed 's/_[A-Z]*\././2' leaves of the
// utterance id in segments.
func recordingID(speaker, session, channel string) string {
	return speaker + "_" + session + "." + channel
}
