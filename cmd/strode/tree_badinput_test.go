package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

const badInputTopo = `<Topology>
<TopologyEntry>
<ForPhones>
1 2 3
</ForPhones>
<State> 0 <PdfClass> 0 <Transition> 0 0.5 <Transition> 1 0.5 </State>
<State> 1 </State>
</TopologyEntry>
</Topology>
`

// build-tree, gmm-init-model and sum-tree-stats refuse inputs that do not
// belong together, with a message that says why, and exit non-zero.
func TestTreeToolsRejectMismatchedInputs(t *testing.T) {
	d := t.TempDir()
	p := func(name string) string { return filepath.Join(d, name) }
	write := func(name, text string) {
		if err := os.WriteFile(p(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("topo", badInputTopo)
	write("roots", "shared split 1\nshared split 2\nshared split 3\n")
	write("roots99", "shared split 1\nshared split 2 3\nshared split 99\n")
	write("sets", "1\n2\n3\n")
	stats := func(dim int, phones ...int32) tree.BuildTreeStats {
		var s tree.BuildTreeStats
		for _, c := range phones {
			for l := int32(1); l <= 3; l++ {
				g := tree.NewGaussClusterable(dim, 0.01)
				x := make([]float32, dim)
				for i := range 20 {
					x[0] = float32(c) + float32(l%2) + float32(i%3)
					g.AddStats(x, 1)
				}
				s = append(s, tree.Stat{Event: tree.EventType{{Key: -1}, {Key: 0, Value: l}, {Key: 1, Value: c}, {Key: 2}}, Stats: g})
			}
		}
		return s
	}
	save := func(name string, s tree.BuildTreeStats) {
		if err := kaldiio.WriteObject(p(name), tree.BuildTreeStatsCodec, true, &s); err != nil {
			t.Fatal(err)
		}
	}
	save("acc", stats(2, 1, 2, 3))
	save("acc4", stats(2, 1, 2, 3, 4))
	save("acc3d", stats(3, 1, 2))
	runDecoderCmd(t, "cluster-phones", "--pdf-class-list=0", p("acc"), p("sets"), p("q.int"))
	runDecoderCmd(t, "compile-questions", "--context-width=3", p("topo"), p("q.int"), p("q.qst"))
	runDecoderCmd(t, "build-tree", "--thresh=1", p("acc"), p("roots"), p("q.qst"), p("topo"), p("tree"))
	ctx, err := tree.Read(p("tree"))
	if err != nil || ctx.NumPdfs() < 3 {
		t.Fatalf("good inputs: tree %v, %v", ctx, err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"root phone without topology", []string{"build-tree", "--thresh=1", p("acc"), p("roots99"), p("q.qst"), p("topo"), p("t")}, "names phone 99, which the topology does not have"},
		{"stats of another phone set", []string{"build-tree", "--thresh=1", p("acc4"), p("roots"), p("q.qst"), p("topo"), p("t")}, "phone 4 appears in stats but is not listed in roots file"},
		{"stats of another dimension", []string{"sum-tree-stats", p("sum"), p("acc"), p("acc3d")}, "dimension 3"},
		{"stats the tree cannot map", []string{"gmm-init-model", p("tree"), p("acc4"), p("topo"), p("m")}, "do not fit the tree"},
		{"questions as stats", []string{"build-tree", "--thresh=1", p("q.qst"), p("roots"), p("q.qst"), p("topo"), p("t")}, "BTS"},
	}
	for _, c := range cases {
		code, _, stderr := runStrode(t, "", c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want failure mentioning %q", c.name, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(p("t")); err == nil {
		t.Error("a failed build-tree left a tree behind")
	}

	// --max-leaves below the roots' 3 leaves is Kaldi's tree without a
	// split (its SplitDecisionTree splits while there are fewer leaves than
	// the maximum), with a warning naming the option and the roots file.
	code, _, stderr := runStrode(t, "", "build-tree", "--max-leaves=2", p("acc"), p("roots"), p("q.qst"), p("topo"), p("t2"))
	if code != 0 || !strings.Contains(stderr, "WARNING") || !strings.Contains(stderr, "--max-leaves=2 is below the 3 leaves that the roots file "+p("roots")) {
		t.Errorf("build-tree --max-leaves=2 with 3 roots: exit %d, want 0 and a warning naming --max-leaves and %s:\n%s", code, p("roots"), stderr)
	}
	if ctx, err := tree.Read(p("t2")); err != nil || ctx.NumPdfs() != 3 {
		t.Errorf("build-tree --max-leaves=2 with 3 roots: tree %v, %v; want the roots' 3 leaves", ctx, err)
	}
}
