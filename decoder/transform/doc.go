// Package transform is Kaldi's src/transform for the speaker-adapted GMM
// ladder (tri2 LDA+MLLT, tri3 SAT): the statistics and estimation of LDA
// (LdaAccs, Estimate: between- and within-class covariances, Cholesky
// whitening, eigenvectors of the whitened between-class covariance), of
// MLLT / global semi-tied covariance (MlltAccs, Gales' row-by-row update)
// and of global fMLLR / CMLLR (FmllrAccs: β, K, G_i and the row-by-row full
// update, or the diagonal and offset-only closed forms), with Kaldi's
// on-disk forms of those statistics; the composition and application of
// linear and affine feature transforms (Compose, Apply, LogDet) and of a
// transform to a model's means (TransformMeans); the posterior
// manipulations around them (ali-to-post, weight-silence-post, pdf
// posteriors, Gaussian-level posteriors and their GaussPost codec); and the
// bodies of the command-line tools that use them (tools.go,
// tools_fmllr.go), which cmd/strode only registers. Every estimator cites
// the Kaldi function it follows; matrices are kaldiio's float matrices, the
// statistics double, the linear algebra gonum's.
//
// # The ladder with strode's commands
//
// What follows is the command sequence of Kaldi's egs/wsj/s5/steps scripts
// with strode's tools, per job JOB (Kaldi's defaults shown; run through
// `strode run.pl JOB=1:$nj ...` as the recipes do); recipes/steps/train_sat.sh,
// align_fmllr.sh and decode_fmllr.sh run the SAT part of it. $sil is the colon list of silence phones
// (data/lang/phones/silence.csl), $sdata the split data dir.
//
// steps/train_lda_mllt.sh (tri2; from delta-trained $alidir):
//
//	splicedfeats="ark,s,cs:strode apply-cmvn --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | strode splice-feats --left-context=3 --right-context=3 ark:- ark:- |"
//	# LDA
//	strode ali-to-post "ark:gunzip -c $alidir/ali.JOB.gz|" ark:- |
//	  strode weight-silence-post 0.0 $sil $alidir/final.mdl ark:- ark:- |
//	  strode acc-lda --rand-prune=4.0 $alidir/final.mdl "$splicedfeats" ark,s,cs:- $dir/lda.JOB.acc
//	strode est-lda --write-full-matrix=$dir/full.mat --dim=40 $dir/0.mat $dir/lda.*.acc
//	feats="$splicedfeats strode transform-feats $dir/0.mat ark:- ark:- |"; cur=0
//	# tree, model, alignments: as train_deltas.sh on "$feats"
//	# (acc-tree-stats, sum-tree-stats, cluster-phones, compile-questions,
//	#  build-tree --max-leaves=$numleaves, gmm-init-model, convert-ali,
//	#  compile-train-graphs)
//	for x in 1 .. 34:
//	  if x in 10 20 30: gmm-align-compiled ... $dir/$x.mdl ... "$feats" ali.JOB.gz   (realign)
//	  if x in 2 4 6 12:                                                                (MLLT)
//	    strode ali-to-post "ark:gunzip -c $dir/ali.JOB.gz|" ark:- |
//	      strode weight-silence-post 0.0 $sil $dir/$x.mdl ark:- ark:- |
//	      strode gmm-acc-mllt --rand-prune=4.0 $dir/$x.mdl "$feats" ark:- $dir/$x.JOB.macc
//	    strode est-mllt $dir/$x.mat.new $dir/$x.*.macc
//	    strode gmm-transform-means $dir/$x.mat.new $dir/$x.mdl $dir/$x.mdl
//	    strode compose-transforms --print-args=false $dir/$x.mat.new $dir/$cur.mat $dir/$x.mat
//	    feats="$splicedfeats strode transform-feats $dir/$x.mat ark:- ark:- |"; cur=$x
//	  strode gmm-acc-stats-ali $dir/$x.mdl "$feats" "ark,s,cs:gunzip -c $dir/ali.JOB.gz|" $dir/$x.JOB.acc
//	  strode gmm-est --write-occs=$dir/$((x+1)).occs --mix-up=$numgauss --power=0.25 \
//	      $dir/$x.mdl "strode gmm-sum-accs - $dir/$x.*.acc |" $dir/$((x+1)).mdl
//	final.mdl = 35.mdl, final.mat = $cur.mat (12.mat)
//
// steps/train_sat.sh (tri3; from an LDA+MLLT $alidir, --fmllr-update-type=full, silence weight 0.0):
//
//	sifeats="$splicedfeats strode transform-feats $alidir/final.mat ark:- ark:- |"
//	# initial transforms, unless $alidir/trans.JOB exist (then use those)
//	strode ali-to-post "ark:gunzip -c $alidir/ali.JOB.gz|" ark:- |
//	  strode weight-silence-post 0.0 $sil $alidir/final.mdl ark:- ark:- |
//	  strode gmm-est-fmllr --fmllr-update-type=full --spk2utt=ark:$sdata/JOB/spk2utt \
//	      $alidir/final.mdl "$sifeats" ark:- ark:$dir/trans.JOB
//	feats="$sifeats strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark,s,cs:$dir/trans.JOB ark:- ark:- |"
//	# tree, model, alignments, graphs: as above on "$feats"
//	for x in 1 .. 34:
//	  if x in 10 20 30: realign with gmm-align-compiled on "$feats"
//	  if x in 2 4 6 12:                                                          (fMLLR, on top of the previous)
//	    strode ali-to-post "ark:gunzip -c $dir/ali.JOB.gz|" ark:- |
//	      strode weight-silence-post 0.0 $sil $dir/$x.mdl ark:- ark:- |
//	      strode gmm-est-fmllr --fmllr-update-type=full --spk2utt=ark:$sdata/JOB/spk2utt \
//	          $dir/$x.mdl "$feats" ark:- ark:$dir/tmp_trans.JOB
//	    strode compose-transforms --b-is-affine=true ark:$dir/tmp_trans.JOB ark:$cur_trans_dir/trans.JOB ark:$dir/composed_trans.JOB
//	    mv $dir/composed_trans.JOB $dir/trans.JOB
//	    feats="$sifeats strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark:$dir/trans.JOB ark:- ark:- |"
//	  gmm-acc-stats-ali / gmm-sum-accs / gmm-est as above
//	# alignment model (final.alimdl):
//	strode ali-to-post "ark:gunzip -c $dir/ali.JOB.gz|" ark:- |
//	  strode gmm-acc-stats-twofeats $dir/35.mdl "$feats" "$sifeats" ark,s,cs:- $dir/35.JOB.acc
//	strode gmm-est --power=0.2 --remove-low-count-gaussians=false $dir/35.mdl "strode gmm-sum-accs - $dir/35.*.acc |" $dir/35.alimdl
//
// steps/align_fmllr.sh: align with final.alimdl on "$sifeats"
// (gmm-align-compiled), then ali-to-post | weight-silence-post 0.0 $sil
// final.mdl | gmm-est-fmllr --spk2utt final.mdl "$sifeats" ark:-
// ark:trans.JOB, then realign with final.mdl on "$sifeats transform-feats
// --utt2spk ... ark:trans.JOB" (without an alimdl, align with final.mdl on
// "$sifeats" first, as the script's fallback does). steps/decode_fmllr.sh:
// a first pass on "$sifeats" with final.alimdl, lattice-to-post |
// weight-silence-post | gmm-post-to-gpost final.mdl "$sifeats" |
// gmm-est-fmllr-gpost --spk2utt ... ark:pre_trans.JOB, a second pass on
// the adapted features, then gmm-est-fmllr (or -gpost) again and
// compose-transforms --b-is-affine=true into trans.JOB, and the state-level
// lattices of the second pass rescored with gmm-rescore-lattice and
// determinized with lattice-determinize-pruned (gmm-latgen-faster,
// lattice-to-post, gmm-rescore-lattice and lattice-determinize-pruned are
// in cmd/strode, their lattice algorithms in decoder/lattice).
package transform
