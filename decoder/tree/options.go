package tree

import (
	"flag"
	"fmt"
	"strconv"
)

// DefaultBuildTreeOptions are build-tree's defaults (Kaldi's).
func DefaultBuildTreeOptions() BuildTreeOptions {
	return BuildTreeOptions{ContextWidth: 3, CentralPosition: 1, Thresh: 300, ClusterThresh: -1, RoundNumLeaves: true}
}

// Register adds build-tree's options to fs under Kaldi's names.
func (o *BuildTreeOptions) Register(fs *flag.FlagSet) {
	fs.Var((*int32Value)(&o.ContextWidth), "context-width", "Context window size [must match acc-tree-stats]")
	fs.Var((*int32Value)(&o.CentralPosition), "central-position", "Central position in context window [must match acc-tree-stats]")
	fs.IntVar(&o.MaxLeaves, "max-leaves", o.MaxLeaves, "Maximum number of leaves to be used in tree-building (if positive)")
	fs.Var((*float32Value)(&o.Thresh), "thresh", "Log-likelihood change threshold for tree-building")
	fs.Var((*float32Value)(&o.ClusterThresh), "cluster-thresh", "Log-likelihood change threshold for clustering after tree-building.  0 means no clustering; -1 means use as a clustering threshold the likelihood change of the final split.")
	fs.BoolVar(&o.RoundNumLeaves, "round-num-leaves", o.RoundNumLeaves, "If true, then the number of leaves will be reduced to a multiple of 8 by clustering.")
}

// Validate checks the context window: 0 ≤ P < N.
func (o *BuildTreeOptions) Validate() error {
	if o.ContextWidth < 1 || o.CentralPosition < 0 || o.CentralPosition >= o.ContextWidth {
		return fmt.Errorf("--context-width=%d --central-position=%d: need 0 <= P < N", o.ContextWidth, o.CentralPosition)
	}
	return nil
}

// The modes of cluster-phones.
const (
	ModeQuestions = "questions" // sets suitable as questions of decision trees
	ModeKMeans    = "k-means"   // k classes by k-means
)

// DefaultClusterPhonesOptions are cluster-phones' defaults (Kaldi's).
func DefaultClusterPhonesOptions() ClusterPhonesOptions {
	return ClusterPhonesOptions{ContextWidth: 3, CentralPosition: 1, PdfClassList: []int32{1}, Mode: ModeQuestions, NumClasses: -1}
}

// Register adds cluster-phones' options to fs under Kaldi's names.
func (o *ClusterPhonesOptions) Register(fs *flag.FlagSet) {
	fs.Var((*int32Value)(&o.CentralPosition), "central-position", "Central position in context window [must match acc-tree-stats]")
	fs.Var((*int32Value)(&o.ContextWidth), "context-width", "Does not have any effect-- included for scripting convenience.")
	fs.Var((*pdfClassList)(&o.PdfClassList), "pdf-class-list", "Colon-separated list of HMM positions to consider [Default = 1: just central position for 3-state models].")
	fs.StringVar(&o.Mode, "mode", o.Mode, "Mode of operation: \"questions\"->sets suitable for decision trees; \"k-means\"->k-means algorithm, output k classes (set num-classes options)")
	fs.IntVar(&o.NumClasses, "num-classes", o.NumClasses, "For k-means mode, number of classes.")
	fs.Var((*uint32Value)(&o.Seed), "srand", "Seed of the C library's rand() that k-means initialisation draws from (0, like 1, gives the sequence Kaldi's cluster-phones uses: it never seeds rand).")
}

// Validate checks the mode and that the number of classes goes with it.
func (o *ClusterPhonesOptions) Validate() error {
	switch o.Mode {
	case ModeQuestions:
		if o.NumClasses != -1 {
			return fmt.Errorf("num-classes option is not (currently) compatible with \"questions\" mode")
		}
	case ModeKMeans:
	default:
		return fmt.Errorf("unknown --mode=%s (questions or k-means)", o.Mode)
	}
	return nil
}

// ClusterPhones is cluster-phones: questions from the statistics of the
// phone sets (AutomaticallyObtainQuestions) or, in k-means mode,
// o.NumClasses classes of them (KMeansClusterPhones).
func ClusterPhones(stats BuildTreeStats, sets [][]int32, o ClusterPhonesOptions) (*ClusterPhonesResult, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.Mode == ModeKMeans {
		return KMeansClusterPhones(stats, sets, o.NumClasses, o)
	}
	return AutomaticallyObtainQuestions(stats, sets, o)
}

// DefaultCompileQuestionsOptions are compile-questions' defaults (Kaldi's).
func DefaultCompileQuestionsOptions() CompileQuestionsOptions {
	return CompileQuestionsOptions{ContextWidth: 3, CentralPosition: 1, LeftmostQuestionsTruncate: -1}
}

// Register adds compile-questions' options to fs under Kaldi's names.
func (o *CompileQuestionsOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.ContextWidth, "context-width", o.ContextWidth, "Context window size [must match acc-tree-stats].")
	fs.IntVar(&o.CentralPosition, "central-position", o.CentralPosition, "Central position in phone context window [must match acc-tree-stats]")
	fs.Var((*int32Value)(&o.NumItersRefine), "num-iters-refine", "Number of iters of refining questions at each node.  >0 --> questions not refined")
	fs.IntVar(&o.LeftmostQuestionsTruncate, "leftmost-questions-truncate", o.LeftmostQuestionsTruncate, "If > 0, the questions for the left-most context position will be truncated to the specified number.")
}

// int32Value, float32Value and uint32Value are flag values of the widths
// Kaldi's options have (int32, BaseFloat), so the options structs carry
// them as the algorithms use them.
type (
	int32Value   int32
	float32Value float32
	uint32Value  uint32
)

// Get makes the values flag.Getters, so usage texts name their types.
func (v *int32Value) Get() any   { return int32(*v) }
func (v *float32Value) Get() any { return float32(*v) }
func (v *uint32Value) Get() any  { return uint32(*v) }

func (v *int32Value) String() string { return strconv.FormatInt(int64(*v), 10) }
func (v *int32Value) Set(s string) error {
	x, err := strconv.ParseInt(s, 0, 32)
	if err != nil {
		return err
	}
	*v = int32Value(x)
	return nil
}

func (v *float32Value) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 32) }
func (v *float32Value) Set(s string) error {
	x, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return err
	}
	*v = float32Value(x)
	return nil
}

func (v *uint32Value) String() string { return strconv.FormatUint(uint64(*v), 10) }
func (v *uint32Value) Set(s string) error {
	x, err := strconv.ParseUint(s, 0, 32)
	if err != nil {
		return err
	}
	*v = uint32Value(x)
	return nil
}

// pdfClassList is a colon-separated list of pdf-classes, not empty.
type pdfClassList []int32

func (l *pdfClassList) String() string {
	s := ""
	for i, c := range *l {
		if i > 0 {
			s += ":"
		}
		s += strconv.Itoa(int(c))
	}
	return s
}

func (l *pdfClassList) Set(s string) error {
	c, err := ParseCSL(s)
	if err != nil || len(c) == 0 {
		return fmt.Errorf("invalid pdf-class-list string [expecting colon-separated list of integers]: %s", s)
	}
	*l = c
	return nil
}
