// Package chime5 prepares Kaldi data directories for the CHiME-5 corpus's
// binaural worn microphones, the data the STRODE paper trains and tests on,
// as Kaldi's egs/chime5/s5 does: local/prepare_data.sh --mictype worn (with
// local/json2text.py) followed by the worn-mic parts of run.sh's stage 5.
// `strode chime5-data-prep` is its command; recipes/kaldi/run.sh calls it for
// --corpus chime5. Kaldi is followed wherever its scripts are explicit; each
// place where they are silent, ambiguous or wrong is listed below with what
// we do.
//
// # Expected corpus layout
//
// As distributed (www.chimechallenge.org/challenges/chime5/data):
//
//	CHiME5/
//	├── audio/
//	│   ├── train/  S03_P09.wav S03_P10.wav ... (binaural: <session>_<speaker>.wav,
//	│   ├── dev/                                 16 kHz 16-bit stereo, left = channel 0)
//	│   └── eval/   (array files S02_U01.CH1.wav ... are ignored)
//	└── transcriptions/
//	    ├── train/  S03.json S04.json ...       (one JSON file per session)
//	    ├── dev/    S02.json S09.json
//	    └── eval/   S01.json S21.json
//
// `strode chime5-data-prep CHiME5 train data/train` reads CHiME5/audio/train
// and CHiME5/transcriptions/train; prepare_data.sh's own form, with the
// audio and JSON directories named separately, works too:
// `strode chime5-data-prep CHiME5/audio/dev CHiME5/transcriptions/dev data/dev`.
// Binaural files are found recursively under the audio directory (following
// symbolic links, as `find -L`), by prepare_data.sh's pattern
// S[0-9]*_P[0-9]*.wav. Transcriptions are the directory's *json files (not
// recursive, sorted), each a JSON array of utterances:
//
//	{"start_time": {"original": "0:00:40.60", "U01": "0:00:40.5953125", ..., "P05": "0:00:40.6002500", ...},
//	 "end_time":   {"original": "0:00:43.82", ...},
//	 "words": "[noise] What were we talking about again? [inaudible 0:00:58.96]",
//	 "speaker": "P05", "session_id": "S02",
//	 "ref": "U02", "location": "kitchen"}          (ref and location: dev and eval only)
//
// The CHiME-5 release has no binaural audio for eval (it was withheld during
// the challenge, and Kaldi's run.sh makes no eval_worn); eval then fails with
// the missing files named, as Kaldi's validate_data_dir.sh would.
//
// # What is written
//
// text, segments, utt2spk, spk2utt and wav.scp, each sorted as LC_ALL=C sort
// sorts and each written atomically (temporary name, then rename). For the
// default options (left channel, unreliable mics excluded):
//
//	text      P05_S02_KITCHEN.L-0004060-0004382 hello there
//	segments  P05_S02_KITCHEN.L-0004060-0004382 P05_S02.L 00040.60 00043.82
//	utt2spk   P05_S02_KITCHEN.L-0004060-0004382 P05
//	spk2utt   P05 P05_S02_KITCHEN.L-0004060-0004382 ...
//	wav.scp   P05_S02.L /abs/bin/strode wav-select-channel --print-args=false --channel=0 /corpora/CHiME5/audio/dev/S02_P05.wav - |
//	   (or)   P05_S02.L sox /corpora/CHiME5/audio/dev/S02_P05.wav -t wav - remix 1 |
//
// On a test corpus, text, segments and utt2spk are byte for byte what
// Kaldi's scripts make of the same JSON (prepare_test.go holds them).
//
// # Kaldi's choices, followed
//
//   - Utterance ids (json2text.py, then prepare_data.sh's sed 's/-/\.L-/'):
//     speaker_session_LOCATION.CHANNEL-start-end, times in centiseconds as
//     "{:07d}"; LOCATION is the entry's "location" upper-cased, or NOLOCATION
//     when there is none (all of train). Kaldi's comments show the older
//     P09_S03.L-0006072-0006147 form; the code adds the location, and so do we.
//   - Times: the worn microphones use "start_time"/"end_time" ["original"]
//     (json2text.py --mictype worn), the transcribers' time on the binaural
//     recordings, not the per-device entries (P05, U01, ...) of other mics.
//     CHiME-6 files, where each time is one string, are read as CHiME-6's
//     json2text.py reads them.
//   - Dropped utterances: "[redacted]" anywhere in the words (the whole
//     utterance, before any other field is read), and end <= start
//     (json2text.py's `if end_time > start_time`); both are counted and logged.
//   - Words: the characters " . ? , : ; ! deleted, lower-cased, white space
//     collapsed (json2text.py); then, on the whole line as prepare_data.sh's
//     seds do, "[inaudible ...]" -> "[inaudible]", " - " -> " ", "mm-" -> "mm",
//     and trailing spaces removed. Bracketed non-speech tokens ([noise],
//     [laughs], [inaudible]) are NOT dropped: Kaldi keeps them as words and its
//     prepare_dict.sh gives each a silence phone of its own; a lexicon made
//     for these data dirs needs them. An utterance left with no words (e.g.
//     "...") is kept with an empty transcription, as Kaldi keeps it.
//   - Channels: prepare_data.sh makes two recordings per binaural file,
//     speaker_session.L (sox remix 1) and .R (remix 2), each utterance once per
//     channel; run.sh stage 5 then keeps only .L for train and dev ("only use
//     left channel for worn mic recognition"). --channels (default L) says
//     which are kept; --channels=L,R is prepare_data.sh alone.
//   - Excluded speaker_sessions: run.sh stage 5 drops P11_S03, P52_S19,
//     P53_S24 and P54_S24 from train (worn mics the organisers call
//     unreliable); --exclude-speaker-sessions has them by default (none is in
//     dev or eval, so the default changes only train). Kaldi matches with
//     grep "^P11_S03", a prefix; we match speaker and session exactly.
//   - segments: "utt recording start end" with awk's %08.2f of the
//     centiseconds / 100 (computed from the integers: no float rounding); the
//     recording is speaker_session.CHANNEL, what prepare_data.sh's sed
//     's/_[A-Z]*\././2' leaves of the utterance id. Four fields: Kaldi's
//     validate_data_dir.sh rejects the optional fifth (channel) field, so the
//     channel is chosen in wav.scp, not in segments.
//   - utt2spk: the speaker is the participant (the id up to the first "_"),
//     as prepare_data.sh's perl; spk2utt as utt2spk_to_spk2utt.pl (speakers in
//     order of first appearance, which must then be sorted: it is, for
//     CHiME-5's P01..P56).
//
// # Where Kaldi is silent, ambiguous or wrong, and what we do
//
//   - wav.scp form. prepare_data.sh writes `sox F -t wav - remix N |`, which
//     needs sox. Our feature tools take any wav.scp pipe, but nothing in
//     them picks a channel on the extract-segments path (compute-*-feats
//     --channel applies to whole recordings; extract-segments refuses a
//     stereo recording without the fifth segments field, which Kaldi's
//     validator forbids). So --wav-pipe=strode writes
//     `strode wav-select-channel --channel=N F - |` (the strode binary by
//     absolute path; wav-select-channel streams the channel out without
//     loading the file), and --wav-pipe=sox Kaldi's exact line. The default,
//     auto, is sox when sox is on PATH, else strode.
//   - wav.scp contents. prepare_data.sh lists every binaural file it finds,
//     even one with no utterances, and validate_data_dir.sh then fails
//     (it wants the same recordings in wav.scp and segments); Kaldi's run.sh
//     gets away with it because fix_data_dir.sh runs in stage 5. We list
//     only the recordings segments uses, with a warning naming each binaural
//     file left out (a log line for excluded speaker_sessions).
//   - Paths. Kaldi writes the audio path as given on its command line; we
//     write absolute paths so the data dir works from any directory, and
//     shell-quote a path that needs it (Kaldi's unquoted $path breaks on
//     spaces).
//   - Missing audio. An utterance whose speaker has no binaural file in its
//     session would make Kaldi's validate_data_dir.sh fail; we fail at once
//     and name every missing file. A file with fewer channels than asked for
//     (e.g. a one-channel file and --channels=L,R) is an error too.
//   - Times. json2text.py pastes the digits after the point behind the whole
//     seconds, right only for the corpus's two digits; it fails on a time
//     without a fraction and accepts nonsense such as 75 minutes. We read
//     H:MM:SS.ff strictly (hours of 1-4 digits, minutes and seconds of 1-2
//     digits below 60, at least one fraction digit), truncating a longer
//     fraction to centiseconds; anything else is an error naming the file,
//     the utterance index, its byte offset, session and speaker. Kaldi
//     compares the "{:07d}" strings; we compare numbers.
//   - Duplicate utterance ids (two entries with the same speaker, session,
//     location and times) would fail validate_data_dir.sh; we fail naming
//     both entries.
//   - Schema details. Field names match exactly (encoding/json's struct
//     decoding would fold case; Python's dict does not). Speaker and session
//     ids must be letters and digits, and a location letters only, or the
//     ids Kaldi's seds take apart would be broken. Python's str.lower() does
//     full Unicode case mapping, Go's strings.ToLower simple mapping; the
//     transcriptions are English in ASCII, where the two agree.
//   - Not done here: run.sh stage 6's 3-minute pseudo-speakers
//     (utils/data/modify_speaker_info.sh --seconds-per-spk-max 180; speakers
//     here are participants, as prepare_data.sh makes them), the array and
//     reference-array (--mictype ref, u01...) data, and the dictionary and
//     language model (prepare_dict.sh, train_lms_srilm.sh).
//
// # Reading JSON
//
// TranscriptReader reads a transcription file one utterance at a time with
// encoding/json's streaming Decoder (a session file is a few megabytes; the
// utterances are then sorted in memory, some 80,000 for train). Every error
// wraps ErrTranscript (and ErrTime for times) and names the file, the
// utterance's index in the array, its byte offset and, once read, its
// session and speaker. FuzzTranscriptReader and FuzzSelectChannel check
// that no input makes the readers panic or produce a malformed id.
package chime5
