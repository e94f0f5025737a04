package scoring

import (
	"flag"
	"strconv"
)

// modeUsage is compute-wer's help for --mode.
const modeUsage = "Scoring mode: \"present\"|\"all\"|\"strict\":\n" +
	"  \"present\" means score those we have transcriptions for\n" +
	"  \"all\" means treat absent transcriptions as empty\n" +
	"  \"strict\" means die if all in ref not also in hyp"

// WEROptions are compute-wer's options with Kaldi's names and defaults.
type WEROptions struct {
	Mode string // --mode: "present", "all" or "strict" (ParseMode)
	Text bool   // --text: deprecated, accepted and ignored as Kaldi does
}

// DefaultWEROptions are Kaldi's defaults: --mode=strict.
func DefaultWEROptions() WEROptions { return WEROptions{Mode: "strict"} }

// Register adds the options to fs under Kaldi's names.
func (o *WEROptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Mode, "mode", o.Mode, modeUsage)
	fs.BoolVar(&o.Text, "text", o.Text, "Deprecated option! Keeping for compatibility reasons.")
}

// BootCIOptions are compute-wer-bootci's options with Kaldi's names and
// defaults.
type BootCIOptions struct {
	Mode         string // --mode: "present", "all" or "strict" (ParseMode)
	Replications int    // --replications: bootstrap draws (Bootstrap.Run)
}

// DefaultBootCIOptions are Kaldi's defaults: --mode=strict, 10000
// replications.
func DefaultBootCIOptions() BootCIOptions { return BootCIOptions{Mode: "strict", Replications: 10000} }

// Register adds the options to fs under Kaldi's names.
func (o *BootCIOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Mode, "mode", o.Mode, modeUsage)
	fs.IntVar(&o.Replications, "replications", o.Replications, "Number of replications to compute the intervals")
}

// Register adds align-text's options to fs under Kaldi's names.
func (o *AlignTextOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.SpecialSymbol, "special-symbol", o.SpecialSymbol, "Special symbol to be aligned with the inserted or deleted words. Your sentences should not contain this symbol.")
	fs.StringVar(&o.Separator, "separator", o.Separator, "Separator for each aligned pairs in the output alignment file. Your sentences should not contain this symbol.")
}

// Register adds wer_per_utt_details.pl's options to fs under its names;
// each output switch is a Getopt::Long "name!" switch: --output-ref,
// --output-ref=false, and the negations --nooutput-ref and --no-output-ref.
func (o *PerUttOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.SpecialSymbol, "special-symbol", o.SpecialSymbol, "special symbol used in align-text to denote empty word in case insertion or deletion")
	fs.StringVar(&o.Separator, "separator", o.Separator, "special symbol used to separate individual word-pairs in the align-text output")
	for _, s := range []struct {
		p           *bool
		name, usage string
	}{
		{&o.Hyp, "output-hyp", "print the hyp (hypothesis) entry"},
		{&o.Ref, "output-ref", "print the ref (reference) entry"},
		{&o.Ops, "output-ops", "print the ops (edit operations) entry"},
		{&o.CSID, "output-csid", "print the #csid entry (counts of the individual edit operations)"},
	} {
		fs.BoolVar(s.p, s.name, *s.p, s.usage)
		for _, neg := range []string{"no", "no-"} {
			fs.Var(negBool{s.p}, neg+s.name, "same as --"+s.name+"=false")
		}
	}
}

// Register adds wer_per_spk_details.pl's options to fs under its names.
func (o *PerSpkOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.SpkFieldWidth, "spk-field-width", o.SpkFieldWidth, "Width of the first field (spk ID field)")
	fs.IntVar(&o.FieldWidth, "field-width", o.FieldWidth, "Width of the fields (with exception of the SPK ID field)")
}

// OpsOptions are wer_ops_details.pl's options with its names and defaults.
type OpsOptions struct {
	SpecialSymbol string // --special-symbol: align-text's symbol for a missing word
	Separator     string // --separator: accepted as the script accepts it; per_utt has none
}

// DefaultOpsOptions are the script's defaults: "<eps>" and ";".
func DefaultOpsOptions() OpsOptions { return OpsOptions{SpecialSymbol: "<eps>", Separator: ";"} }

// Register adds the options to fs under the script's names.
func (o *OpsOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.SpecialSymbol, "special-symbol", o.SpecialSymbol, "special symbol used in align-text to denote empty word in case insertion or deletion")
	fs.StringVar(&o.Separator, "separator", o.Separator, "accepted as the script accepts it; per_utt has no separators")
}

// negBool is a boolean flag that stores the negation of its value.
type negBool struct{ p *bool }

func (n negBool) String() string {
	if n.p == nil {
		return "false"
	}
	return strconv.FormatBool(!*n.p)
}

func (n negBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*n.p = !v
	return nil
}

func (n negBool) IsBoolFlag() bool { return true }

// Get lets a usage printer see a boolean switch.
func (n negBool) Get() any { return n.p != nil && !*n.p }
