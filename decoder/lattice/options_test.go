package lattice

import (
	"flag"
	"io"
	"testing"
)

func parseOptions(t *testing.T, register func(*flag.FlagSet), args ...string) {
	t.Helper()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
}

func TestOptionsRegister(t *testing.T) {
	n := DefaultNbestOptions()
	parseOptions(t, n.Register, "--n=3", "--acoustic-scale=0.1")
	if n.N != 3 || n.AcousticScale != 0.1 || n.LMScale != 1 || n.Validate() != nil {
		t.Errorf("nbest: %+v, %v", n, n.Validate())
	}
	n.Random = true
	if n.Validate() == nil {
		t.Error("nbest: --random accepted")
	}

	m := DefaultMBROptions()
	parseOptions(t, m.Register, "--inv-acoustic-scale=12", "--acoustic-scale=0.1")
	if m.Validate() == nil {
		t.Error("mbr: both acoustic scales accepted")
	}

	w := DefaultWordAlignOptions()
	parseOptions(t, w.Register, "--silence-label=4", "--reorder=false")
	var info WordBoundaryInfo
	w.Apply(&info)
	if info.SilenceLabel != 4 || info.Reorder || !w.OutputErrorLats {
		t.Errorf("word align: %+v", w)
	}

	var o OracleOptions
	parseOptions(t, o.Register, "--wildcard-symbols=3:5")
	set := map[int32]bool{}
	if err := o.Wildcards(set); err != nil || !set[3] || !set[5] || len(set) != 2 {
		t.Errorf("oracle wildcards %v, %v", set, err)
	}
	o.WildcardSymbols = "3:x"
	if o.Wildcards(set) == nil {
		t.Error("oracle: bad wildcard list accepted")
	}
}
