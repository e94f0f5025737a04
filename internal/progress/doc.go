// Package progress reports how far a long piece of work has got: training
// epochs (frames), and the per-utterance loops of feature extraction,
// forward and decoding. A Reporter picks its form from where stderr goes:
// on a terminal a bar redrawn in place (github.com/cheggaaa/pb/v3) with the
// count, the rate and the ETA; otherwise Kaldi-style LOG lines through the
// caller's log function, at most one every Interval (10 s), so a log file
// gets a few readable lines and no carriage returns, and a task shorter
// than Interval adds nothing to it. The summaries Kaldi prints at the end
// stay the caller's: the Reporter never prints a line a recipe greps for.
//
// Under `go test` an Auto reporter is silent (tests that check stderr see
// exactly what they saw before); tests of the reporter itself choose a Mode
// and inject a clock. STRODE_PROGRESS=bar|log|off overrides the choice
// outside tests.
package progress
