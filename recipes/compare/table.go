package compare

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
)

// WriteMarkdown prints the report as Markdown tables (for RESULTS.md): one
// row per model, one row per pair, then the runs each pair had to leave out.
// Numbers have two decimals; "-" stands for a value that needs more runs.
func WriteMarkdown(w io.Writer, rep *Report) error {
	bw := bufio.NewWriter(w)
	conf := confidenceLabel(rep.Options.Confidence)
	repeats := false
	for i := range rep.Models {
		repeats = repeats || rep.Models[i].RepeatsConditions()
	}
	fmt.Fprintln(bw, "WER per model (mean over runs ± standard error; pooled: all errors / all words)")
	fmt.Fprintln(bw)
	if repeats {
		fmt.Fprintln(bw, "| model | runs | mean WER (%) | s.e. | pooled WER (%) | conditions | mean over conditions (%) | s.e. |")
		fmt.Fprintln(bw, "|-------|------|--------------|------|----------------|------------|--------------------------|------|")
	} else {
		fmt.Fprintln(bw, "| model | runs | mean WER (%) | s.e. | pooled WER (%) |")
		fmt.Fprintln(bw, "|-------|------|--------------|------|----------------|")
	}
	for i := range rep.Models {
		m := &rep.Models[i]
		fmt.Fprintf(bw, "| %s | %d | %s | %s | %s |", m.Model, m.WER.N, num(m.WER.Mean), num(m.WER.SE), num(m.Pooled))
		if repeats {
			fmt.Fprintf(bw, " %d | %s | %s |", len(m.Conditions), num(m.OverConditions.Mean), num(m.OverConditions.SE))
		}
		fmt.Fprintln(bw)
	}
	if len(rep.Pairs) > 0 {
		fmt.Fprintln(bw)
		fmt.Fprintf(bw, "Paired differences B - A in WER points, runs matched on condition and seed (negative: B has fewer errors)\n\n")
		fmt.Fprintf(bw, "| B - A | pairs | mean | s.e. | %s interval | t | B better / worse / tie |\n", conf)
		fmt.Fprintln(bw, "|-------|-------|------|------|--------------|---|------------------------|")
		for _, p := range rep.Pairs {
			fmt.Fprintf(bw, "| %s - %s | %d | %s | %s | %s | %s | %d / %d / %d |\n", p.B, p.A, p.Diff.N,
				signed(p.Diff.Mean), num(p.Diff.SE), interval(p.Diff), num(p.Diff.T), p.Better, p.Worse, p.Ties)
		}
		fmt.Fprintln(bw)
		fmt.Fprintf(bw, "Interval: mean ± t(%s, n-1) · s.e., Student t over the pairs taken as independent\n", quantileLabel(rep.Options.Confidence))
		fmt.Fprintln(bw, "(pairs that share a condition or a seed are not quite independent: an approximation).")
		if hasOverConditions(rep) {
			fmt.Fprintln(bw)
			fmt.Fprintf(bw, "The same differences averaged per condition first (n = conditions: the condition, not the run, as the unit;\n")
			fmt.Fprintln(bw, "the conservative interval when the runs of a condition share it)")
			fmt.Fprintln(bw)
			fmt.Fprintf(bw, "| B - A | conditions | mean | s.e. | %s interval | t |\n", conf)
			fmt.Fprintln(bw, "|-------|------------|------|------|--------------|---|")
			for _, p := range rep.Pairs {
				if o := p.OverConditions; o.N > 0 {
					fmt.Fprintf(bw, "| %s - %s | %d | %s | %s | %s | %s |\n", p.B, p.A, o.N, signed(o.Mean), num(o.SE), interval(o), num(o.T))
				}
			}
		}
		var left []string
		for _, p := range rep.Pairs {
			for _, u := range p.Unmatched {
				left = append(left, fmt.Sprintf("- %s - %s: %s %s seed %s (%s, %s) has no %s run",
					p.B, p.A, u.Run.Model, u.Run.Condition, u.Run.Seed, num(u.Run.WER), u.Run.Source, u.Missing))
			}
		}
		if len(left) > 0 {
			fmt.Fprintln(bw)
			fmt.Fprintln(bw, "Unmatched runs (counted in their model's row, left out of the pair):")
			fmt.Fprintln(bw)
			fmt.Fprintln(bw, strings.Join(left, "\n"))
		}
	}
	return bw.Flush()
}

func hasOverConditions(rep *Report) bool {
	for _, p := range rep.Pairs {
		if p.OverConditions.N > 0 {
			return true
		}
	}
	return false
}

// num prints x with two decimals, "-" for NaN.
func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return fmt.Sprintf("%.2f", x+0) // +0 turns -0 into 0
}

// signed is num with an explicit sign.
func signed(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	if math.Abs(x) < 0.005 {
		return "0.00"
	}
	return fmt.Sprintf("%+.2f", x)
}

func interval(s Summary) string {
	if math.IsNaN(s.Lo) {
		return "-"
	}
	return fmt.Sprintf("[%s, %s]", signed(s.Lo), signed(s.Hi))
}

// confidenceLabel is "95%" for 0.95, "99.9%" for 0.999.
func confidenceLabel(c float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", 100*c), "0"), ".") + "%"
}

// quantileLabel is "0.975" for 0.95: the quantile the interval uses.
func quantileLabel(c float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.6f", (1+c)/2), "0"), ".")
}
