package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/kaldinnet/online"
	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/decoder/search"
	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "online2-wav-latgen-faster",
		Summary: "Decode audio as it arrives with a causal acoustic model (online2-wav-nnet3-latgen-faster)",
		Description: "Reads in wav file(s) and simulates online decoding with a causal acoustic model (trained with\n" +
			"`strode train --causal`), as Kaldi's online2-wav-nnet3-latgen-faster: audio in chunks of --chunk-length\n" +
			"seconds; features (--feature-type, --fbank-config/--mfcc-config) computed as the samples arrive; online\n" +
			"CMVN (--global-cmvn-stats, --cmn-window, --speaker-frames, --global-frames, --norm-means, --norm-vars,\n" +
			"or --cmvn-config) with the speaker's stats carried from utterance to utterance of spk2utt; the model's\n" +
			"left splicing; the model run on the new frames with its recurrent state carried; pseudo log-likelihoods\n" +
			"as forward makes them (--no-softmax, --class-frame-counts); the lattice search advanced chunk by chunk.\n" +
			"Partial results go to stderr as \"utt-id: words\" whenever they change (with --word-symbol-table), then\n" +
			"Kaldi's final \"utt-id words\" line; lattices are written as latgen-faster-mapped writes them, and are\n" +
			"the lattices of the whole-utterance chain (online CMVN, forward, latgen-faster-mapped) for any chunk\n" +
			"length. --do-endpointing applies Kaldi's endpoint rules (--endpoint.silence-phones, --endpoint.rule1..5.*).\n" +
			"The transition model (--transition-model) maps the model's pdfs to the graph's transition-ids.\n" +
			"\n" +
			"Latency: a causal model looks at no future frame, so frame t's output is final as soon as frame t's\n" +
			"samples are in: 0 frames of look-ahead, an algorithmic latency of one analysis window, 25 ms at\n" +
			"Kaldi's 25 ms window and 10 ms shift (15 ms beyond the frame's own 10 ms hop). Each frame of\n" +
			"--right-context or --target-delay the model was trained with adds 10 ms; a bidirectional model cannot\n" +
			"be decoded online. The chunk (--chunk-length, 180 ms by default) and the compute time (logged per\n" +
			"chunk) come on top.\n" +
			"\n" +
			"Live audio: with - as the wav-rspecifier a WAV stream is read from stdin as it arrives; with\n" +
			"--raw-pcm, headerless 16-bit little-endian PCM at --sample-rate. The stream is named by the first\n" +
			"utterance of spk2utt; with --do-endpointing every endpoint ends an utterance and the stream goes on\n" +
			"as the next, named UTT-0001, UTT-0002, ... (one speaker: CMVN carries over).",
		ArgsUsage: "<model-in> <fst-in> <spk2utt-rspecifier> <wav-rspecifier> <lattice-wspecifier>",
		Examples: []string{
			"strode online2-wav-latgen-faster --transition-model=exp/mono/final.mdl --class-frame-counts=exp/causal/ali_train_pdf.counts \\\n" +
				"    --feature-type=fbank --fbank-config=conf/fbank.conf --global-cmvn-stats=exp/causal/global_cmvn.stats \\\n" +
				"    --word-symbol-table=exp/mono/graph/words.txt exp/causal/final.am exp/mono/graph/HCLG.fst \\\n" +
				"    ark:data/test/spk2utt scp:data/test/wav.scp 'ark:|gzip -c > exp/causal/decode_online/lat.1.gz'",
			"arecord -f S16_LE -r 16000 -c 1 -t raw | strode online2-wav-latgen-faster --raw-pcm --sample-rate=16000 \\\n" +
				"    --do-endpointing --endpoint.silence-phones=1 --transition-model=final.mdl --class-frame-counts=pdf.counts \\\n" +
				"    --feature-type=fbank --global-cmvn-stats=global_cmvn.stats --word-symbol-table=words.txt \\\n" +
				"    final.am HCLG.fst 'ark:echo mic mic |' - ark:/dev/null",
		},
		MinArgs: 5, MaxArgs: 5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			so := search.DefaultOptions()
			so.Register(fs)
			oo := online.DefaultOptions()
			oo.Register(fs)
			fc := online.DefaultFeatureConfig()
			fc.Register(fs)
			po := priors.DefaultOptions()
			po.Register(fs)
			out := am.OutputOptions{NoSoftmax: true}
			out.Register(fs)
			acwt := 0.1
			var wordSyms, transModel string
			rawPCM := false
			sampleRate := 16000.0
			fs.Float64Var(&acwt, "acoustic-scale", acwt, "Scaling factor for acoustic log-likelihoods")
			fs.StringVar(&wordSyms, "word-symbol-table", "", "Symbol table for words [for debug output]")
			fs.StringVar(&transModel, "transition-model", "", "Kaldi model (e.g. final.mdl) whose transition model maps transition-ids to the acoustic model's pdfs (required)")
			fs.BoolVar(&rawPCM, "raw-pcm", rawPCM, "Read headerless signed 16-bit little-endian PCM from stdin (give - as the wav-rspecifier), e.g. from arecord -t raw")
			fs.Float64Var(&sampleRate, "sample-rate", sampleRate, "Sample rate of --raw-pcm input, in Hz")
			return func(ctx *kaldicmd.Context) error {
				if transModel == "" {
					return kaldicmd.Exit(1, fmt.Errorf("--transition-model is required: the Kaldi model whose transition model belongs to the graph"))
				}
				r, err := setupOnline(ctx, fs, onlineSetup{search: so, opts: oo, feats: fc, prior: po, out: out,
					acwt: float32(acwt), words: wordSyms, transModel: transModel})
				if err != nil {
					return err
				}
				defer r.Close()
				lw, err := kaldiio.OpenTableWriter(ctx.Arg(4), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return fmt.Errorf("Could not open table for writing lattices: %s: %w", ctx.Arg(4), err)
				}
				r.Lattices = lw.Write
				live := ctx.Arg(3) == "-"
				switch {
				case rawPCM && !live:
					err = fmt.Errorf("--raw-pcm reads stdin: give - as the wav-rspecifier, not %q", ctx.Arg(3))
				case live:
					err = decodeLive(ctx, r, rawPCM, sampleRate)
				default:
					err = r.DecodeTables(ctx.Arg(2), ctx.Arg(3), tableStreams(ctx)...)
				}
				for _, l := range r.Summary() {
					ctx.Log("%s", l)
				}
				if cerr := lw.Close(); err == nil {
					err = cerr
				}
				if err == nil && r.NumDone == 0 {
					err = kaldicmd.Exit(1, fmt.Errorf("no utterances decoded"))
				}
				return err
			}
		},
	})
}

type onlineSetup struct {
	search            search.Options
	opts              online.Options
	feats             online.FeatureConfig
	prior             priors.Options
	out               am.OutputOptions
	acwt              float32
	words, transModel string
}

// setupOnline loads the model, transition model, graph, priors, feature
// options and CMVN stats, and makes the recognizer.
func setupOnline(ctx *kaldicmd.Context, fs *flag.FlagSet, s onlineSetup) (*online.Recognizer, error) {
	f, err := am.Load(ctx.Arg(0))
	if err != nil {
		return nil, err
	}
	tm, err := hmm.ReadTransitionModel(s.transModel)
	if err != nil {
		return nil, err
	}
	g, err := fst.ReadFile(ctx.Arg(1))
	if err != nil {
		return nil, err
	}
	graph, err := search.NewGraph(g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ctx.Arg(1), err)
	}
	pr, err := priors.Load(s.prior)
	if err != nil {
		return nil, err
	}
	if pr != nil && pr.Floored > 0 {
		ctx.Log("%d pdfs under --prior-floor=%g are banned", pr.Floored, s.prior.PriorFloor)
	}
	comp, err := featureComputer(s.feats)
	if err != nil {
		return nil, err
	}
	cmvn, err := cmvnOptions(fs, s.feats)
	if err != nil {
		return nil, err
	}
	var global []float64
	if s.feats.GlobalCmvnStats != "" {
		var m kaldiio.DoubleMatrix
		if err := kaldiio.ReadObject(s.feats.GlobalCmvnStats, kaldiio.DoubleMatrixCodec, &m, tableStreams(ctx)...); err != nil {
			return nil, fmt.Errorf("--global-cmvn-stats: %w", err)
		}
		if m.Rows != 2 {
			return nil, fmt.Errorf("--global-cmvn-stats=%s: %d×%d, want CMVN stats of 2 rows", s.feats.GlobalCmvnStats, m.Rows, m.Cols)
		}
		global = m.Data
	}
	fi, warns, err := online.NewFeatureInfo(comp, cmvn, global, f.Pipeline)
	if err != nil {
		return nil, err
	}
	for _, w := range warns {
		ctx.Warn("%s", w)
	}
	r := &online.Recognizer{
		Model:    &online.Model{AM: f, TM: tm, Graph: graph, Prior: pr, Output: s.out, AcousticScale: s.acwt, Search: s.search},
		Features: fi, Opts: s.opts, Stderr: ctx.Stderr, Log: ctx.Log, Warn: ctx.Warn,
	}
	if s.words != "" {
		if r.Words, err = fst.ReadSymbolTableFile(s.words); err != nil {
			return nil, fmt.Errorf("Could not read symbol table from file %s: %w", s.words, err)
		}
	}
	if err := r.Init(); err != nil {
		return nil, err
	}
	look := am.Lookahead(f.Model.Opts, f.Pipeline)
	fo := comp.FrameOptions()
	ctx.Log("model %s (%s): look-ahead %d frames; algorithmic latency %g ms (%d x %g ms shift + %g ms window)",
		ctx.Arg(0), f.Model.Opts.Kind, look, float64(look)*fo.FrameShiftMs+fo.FrameLengthMs, look, fo.FrameShiftMs, fo.FrameLengthMs)
	return r, nil
}

// featureComputer is --feature-type with its --fbank-config or
// --mfcc-config.
func featureComputer(c online.FeatureConfig) (features.Computer, error) {
	fs := flag.NewFlagSet(c.FeatureType, flag.ContinueOnError)
	switch c.FeatureType {
	case "fbank":
		o := features.DefaultFbankOptions()
		if c.FbankConfig != "" {
			o.Register(fs)
			if err := kaldicmd.ReadConfigFile(fs, c.FbankConfig); err != nil {
				return nil, fmt.Errorf("--fbank-config: %w", err)
			}
		}
		return features.NewFbank(o)
	case "mfcc":
		o := features.DefaultMfccOptions()
		if c.MfccConfig != "" {
			o.Register(fs)
			if err := kaldicmd.ReadConfigFile(fs, c.MfccConfig); err != nil {
				return nil, fmt.Errorf("--mfcc-config: %w", err)
			}
		}
		return features.NewMfcc(o)
	}
	return nil, fmt.Errorf("invalid feature type: --feature-type=%s (want fbank or mfcc)", c.FeatureType)
}

// cmvnOptions are the online CMVN options: --cmvn-config's, with those
// given on the command line (or in --config) on top.
func cmvnOptions(main *flag.FlagSet, c online.FeatureConfig) (features.OnlineCmvnOptions, error) {
	if c.CmvnConfig == "" {
		return c.Cmvn, nil
	}
	o := features.DefaultOnlineCmvnOptions()
	fs := flag.NewFlagSet("cmvn", flag.ContinueOnError)
	o.Register(fs)
	if err := kaldicmd.ReadConfigFile(fs, c.CmvnConfig); err != nil {
		return o, fmt.Errorf("--cmvn-config: %w", err)
	}
	var err error
	main.Visit(func(f *flag.Flag) {
		if err == nil && fs.Lookup(f.Name) != nil && f.Name != "config" {
			err = fs.Set(f.Name, f.Value.String())
		}
	})
	return o, err
}

// decodeLive decodes stdin as it arrives, named by spk2utt's first
// utterance. The audio is stdin, so spk2utt gets an empty one: a command
// in its rspecifier must not swallow the audio.
func decodeLive(ctx *kaldicmd.Context, r *online.Recognizer, raw bool, rate float64) error {
	sr, err := kaldiio.OpenSequentialReader(ctx.Arg(2), kaldiio.TokenVectorCodec,
		kaldiio.WithStdin(strings.NewReader("")), kaldiio.WithStdout(ctx.Stdout), kaldiio.WithStderr(ctx.Stderr))
	if err != nil {
		return err
	}
	utt := ""
	if sr.Next() && len(sr.Value()) > 0 {
		utt = sr.Value()[0]
	}
	if err := sr.Close(); err != nil {
		return err
	}
	if utt == "" {
		return fmt.Errorf("%s: no utterance to name the stream (e.g. 'ark:echo mic mic |'; stdin is the audio)", ctx.Arg(2))
	}
	var ws *features.WaveStream
	if raw {
		ws, err = features.NewRawPCMStream(ctx.Stdin, rate, 1)
	} else {
		ws, err = features.OpenWaveStream(ctx.Stdin)
	}
	if err != nil {
		return fmt.Errorf("stdin: %w", err)
	}
	return r.DecodeStream(ws, utt)
}
