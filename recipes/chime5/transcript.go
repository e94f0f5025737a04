package chime5

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrTranscript marks a transcription file that does not follow the
// corpus's schema (wrapped with the file, utterance index and byte offset).
var ErrTranscript = errors.New("bad CHiME-5 transcription")

// ErrTime marks a time that is not "H:MM:SS.ff".
var ErrTime = errors.New("bad transcription time")

// Entry is one element of a transcription file's array, with the fields
// json2text.py reads, before any normalisation. Redacted entries carry only
// Words: json2text.py drops them before it reads anything else, and so do we.
type Entry struct {
	Index    int    // position in the file's array, from 0
	Offset   int64  // byte offset of the entry in the file
	Words    string // "words", as transcribed
	Redacted bool   // Words contains "[redacted]": the entry is dropped
	Session  string // "session_id", e.g. "S02"
	Speaker  string // "speaker", e.g. "P05"
	Location string // "location" upper-cased ("KITCHEN"), "NOLOCATION" when absent (train)
	Start    int64  // "start_time" of the worn microphones, in centiseconds
	End      int64  // "end_time", in centiseconds
}

// Where names the entry for error messages: its index and, once known, its
// session and speaker.
func (e *Entry) Where() string {
	s := fmt.Sprintf("utterance %d (byte %d", e.Index, e.Offset)
	if e.Session != "" {
		s += ", session " + e.Session
	}
	if e.Speaker != "" {
		s += ", speaker " + e.Speaker
	}
	return s + ")"
}

// TranscriptReader reads the entries of one transcription file (a JSON array
// of objects) one at a time, so a file is never held whole in memory.
type TranscriptReader struct {
	name  string
	dec   *json.Decoder
	index int
	begun bool
	done  bool
}

// NewTranscriptReader reads the transcription file r; name is used in errors.
func NewTranscriptReader(r io.Reader, name string) *TranscriptReader {
	return &TranscriptReader{name: name, dec: json.NewDecoder(r)}
}

func (t *TranscriptReader) errorf(format string, a ...any) error {
	return fmt.Errorf("%s: %w: %s", t.name, ErrTranscript, fmt.Sprintf(format, a...))
}

// Next returns the next entry, or io.EOF after the closing bracket (and
// nothing but white space after it).
func (t *TranscriptReader) Next() (*Entry, error) {
	if t.done {
		return nil, io.EOF
	}
	if !t.begun {
		t.begun = true
		tok, err := t.dec.Token()
		if err != nil {
			return nil, t.errorf("byte %d: expected a JSON array of utterances: %v", t.dec.InputOffset(), err)
		}
		if d, ok := tok.(json.Delim); !ok || d != '[' {
			return nil, t.errorf("byte %d: expected a JSON array of utterances, found %v", t.dec.InputOffset(), tok)
		}
	}
	if !t.dec.More() {
		// More is false at ']' and also at a stray '}' or the end of the input.
		tok, err := t.dec.Token()
		if err != nil {
			return nil, t.errorf("byte %d: after utterance %d: unterminated array: %v", t.dec.InputOffset(), t.index-1, err)
		}
		if d, ok := tok.(json.Delim); !ok || d != ']' {
			return nil, t.errorf("byte %d: after utterance %d: expected ']', found %v", t.dec.InputOffset(), t.index-1, tok)
		}
		if tok, err := t.dec.Token(); err != io.EOF {
			return nil, t.errorf("byte %d: data after the array: %v%v", t.dec.InputOffset(), tok, errSuffix(err))
		}
		t.done = true
		return nil, io.EOF
	}
	e := &Entry{Index: t.index, Offset: t.dec.InputOffset()}
	t.index++
	var obj map[string]json.RawMessage
	if err := t.dec.Decode(&obj); err != nil {
		return nil, t.errorf("%s: not a JSON object: %v", e.Where(), err)
	}
	if obj == nil {
		return nil, t.errorf("%s: null instead of an utterance object", e.Where())
	}
	if err := e.fill(obj); err != nil {
		// Both sentinels stay visible to errors.Is (ErrTime from a time).
		return nil, fmt.Errorf("%s: %w: %s: %w", t.name, ErrTranscript, e.Where(), err)
	}
	return e, nil
}

func errSuffix(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}

// fill reads the fields json2text.py reads, in its order: "words" first
// (a redacted utterance is dropped without looking further), then
// "session_id", "speaker", "location" and the worn-microphone times.
func (e *Entry) fill(obj map[string]json.RawMessage) error {
	var err error
	if e.Words, err = stringField(obj, "words", true); err != nil {
		return err
	}
	if strings.Contains(e.Words, "[redacted]") {
		e.Redacted = true
		return nil
	}
	if e.Session, err = stringField(obj, "session_id", true); err != nil {
		return err
	}
	if !isIDWord(e.Session) {
		return fmt.Errorf("session_id %q: want letters and digits only (e.g. S02)", e.Session)
	}
	if e.Speaker, err = stringField(obj, "speaker", true); err != nil {
		return err
	}
	if !isIDWord(e.Speaker) {
		return fmt.Errorf("speaker %q: want letters and digits only (e.g. P05)", e.Speaker)
	}
	e.Location = "NOLOCATION"
	if _, ok := obj["location"]; ok {
		loc, err := stringField(obj, "location", true)
		if err != nil {
			return err
		}
		// Python's upper(); the recording id is recovered from the utterance
		// id with sed 's/_[A-Z]*\././2', so anything but A-Z breaks it.
		e.Location = strings.ToUpper(loc)
		if e.Location == "" || strings.IndexFunc(e.Location, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
			return fmt.Errorf("location %q: want letters only (e.g. kitchen)", loc)
		}
	}
	if e.Start, err = wornTime(obj, "start_time"); err != nil {
		return err
	}
	if e.End, err = wornTime(obj, "end_time"); err != nil {
		return err
	}
	return nil
}

// isIDWord reports whether s is a non-empty run of ASCII letters and digits:
// a speaker or session id that can sit in an utterance id unchanged.
func isIDWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// stringField returns obj[key] as a string. Keys match exactly, as in
// Python's dict (encoding/json's struct decoding would fold case).
func stringField(obj map[string]json.RawMessage, key string, required bool) (string, error) {
	raw, ok := obj[key]
	if !ok {
		if required {
			return "", fmt.Errorf("no %q field", key)
		}
		return "", nil
	}
	var s string
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return "", fmt.Errorf("%q is null, want a string", key)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%q is %s, want a string", key, describe(raw))
	}
	return s, nil
}

// wornTime reads the worn-microphone time of key: CHiME-5 gives an object of
// per-device times and json2text.py --mictype worn takes its "original"
// entry (the transcribers' time, on the binaural recordings' clock); CHiME-6
// gives one string, which its json2text.py takes as it is.
func wornTime(obj map[string]json.RawMessage, key string) (int64, error) {
	raw, ok := obj[key]
	if !ok {
		return 0, fmt.Errorf("no %q field", key)
	}
	var s string
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) > 0 && raw[0] == '{':
		var devices map[string]json.RawMessage
		if err := json.Unmarshal(raw, &devices); err != nil {
			return 0, fmt.Errorf("%q: %v", key, err)
		}
		v, err := stringField(devices, "original", true)
		if err != nil {
			return 0, fmt.Errorf("%q: %v", key, err)
		}
		s = v
	case len(raw) > 0 && raw[0] == '"':
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, fmt.Errorf("%q: %v", key, err)
		}
	default:
		return 0, fmt.Errorf("%q is %s, want an object of device times or a string", key, describe(raw))
	}
	cs, err := ParseTime(s)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", key, err)
	}
	return cs, nil
}

// describe names the JSON type of raw for error messages.
func describe(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// ParseTime reads a transcription time "H:MM:SS.ff" (hours of 1 to 4 digits,
// minutes and seconds of 1 or 2 digits below 60, at least one digit after
// the point) as centiseconds. json2text.py's hms_to_seconds pastes the digits
// after the point behind the whole seconds, which is right for the corpus's
// two digits only; we read the fraction as a decimal fraction and truncate
// it to centiseconds, so two digits give exactly Kaldi's value. A time
// without a fraction (a crash in json2text.py) or with anything else in it
// is an error.
func ParseTime(s string) (int64, error) {
	bad := func(why string) (int64, error) {
		return 0, fmt.Errorf("%w %q: %s (want H:MM:SS.ff)", ErrTime, s, why)
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return bad("not three colon-separated fields")
	}
	secFrac := strings.SplitN(parts[2], ".", 2)
	if len(secFrac) != 2 {
		return bad("no fraction of a second")
	}
	h, ok := digits(parts[0], 1, 4)
	if !ok {
		return bad("hours are not 1 to 4 digits")
	}
	m, ok := digits(parts[1], 1, 2)
	if !ok || m >= 60 {
		return bad("minutes are not 0 to 59")
	}
	sec, ok := digits(secFrac[0], 1, 2)
	if !ok || sec >= 60 {
		return bad("seconds are not 0 to 59")
	}
	frac := secFrac[1]
	if _, ok := digits(frac, 1, len(frac)); !ok {
		return bad("the fraction is not digits")
	}
	cs := int64(frac[0]-'0') * 10
	if len(frac) > 1 {
		cs += int64(frac[1] - '0')
	}
	return ((h*60+m)*60+sec)*100 + cs, nil
}

// digits parses s as an unsigned decimal of min to max ASCII digits.
func digits(s string, min, max int) (int64, bool) {
	if len(s) < min || len(s) > max {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}
