package scoring

import (
	"flag"
	"io"
	"testing"
)

func TestPerUttOptionsRegister(t *testing.T) {
	o := DefaultPerUttOptions()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.Register(fs)
	if err := fs.Parse([]string{"--nooutput-ref", "--no-output-hyp", "--output-csid=false", "--special-symbol=***"}); err != nil {
		t.Fatal(err)
	}
	want := PerUttOptions{SpecialSymbol: "***", Separator: ";", Ops: true}
	if o != want {
		t.Errorf("got %+v, want %+v", o, want)
	}
}

func TestBootCIOptionsRegister(t *testing.T) {
	o := DefaultBootCIOptions()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	o.Register(fs)
	if err := fs.Parse([]string{"--mode=present", "--replications=5"}); err != nil {
		t.Fatal(err)
	}
	if m, err := ParseMode(o.Mode); err != nil || m != Present || o.Replications != 5 {
		t.Errorf("got %+v (%v, %v)", o, m, err)
	}
}
