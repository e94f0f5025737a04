# steps_mmi.sh — --mmi-epochs N: sequence training of every run after its cross-entropy training,
# as Kaldi's steps/nnet/make_denlats.sh and steps/nnet/train_mmi.sh (--sequence-criterion mmi) or
# train_mpe.sh --do-smbr true (smbr) do for nnet1's DNNs (sourced by run.sh after steps.sh; never
# run).
#
# check_mmi                the option's checks, before any work
# make_dengraph            (stage 5) the denominator graph: a unigram of the training text
#                          (utils/make_unigram_grammar.pl's maximum-likelihood one, over the
#                          words the text has) as G.fst in LANG_den, HCLG with the networks' tree
#                          and transition model in exp/strode_dengraph
# train_mmi RUN            (stage 5) RUN's denominator lattices of its training utterances
#                          (forward | latgen-faster-mapped with make_denlats.sh's beams) in
#                          exp/RUNNAME_denlats; with --mmi-ali net the training data aligned by
#                          RUN's model (steps/nnet/align.sh) into exp/RUNNAME_ali as the numerator,
#                          with --mmi-ali gmm the alignments RUN was trained on; then strode train
#                          --den-lats from RUN's model into exp/RUNNAME_mmi, or _smbr
#                          (--mmi-epochs epochs at --mmi-learning-rate, nnet1's acoustic scale 0.1;
#                          MMI's frame dropping, or sMBR's silence phones as one class as
#                          train_mpe.sh's; the model's --MODEL-opts, --mmi-opts last)
# mmi_runs                 the runs stages 6 and 7 decode and score: every run, and with
#                          --mmi-epochs each one's sequence-trained model (MODEL_mmi:SEED or
#                          MODEL_smbr:SEED)

# criterion_name: MMI or sMBR, for the log.
criterion_name() { if [ "$sequence_criterion" = smbr ]; then echo sMBR; else echo MMI; fi; }

check_mmi() {
  [ "$mmi_epochs" != 0 ] || return 0
  [[ "$mmi_epochs" =~ ^[0-9]+$ ]] || { echo "$0: --mmi-epochs must be a number of epochs, not '$mmi_epochs'" >&2; exit 1; }
  case "$mmi_ali" in gmm|net) ;; *) echo "$0: --mmi-ali must be gmm or net, not '$mmi_ali'" >&2; exit 1 ;; esac
  case "$sequence_criterion" in mmi|smbr) ;; *) echo "$0: --sequence-criterion must be mmi or smbr, not '$sequence_criterion'" >&2; exit 1 ;; esac
  if [ "$realign_iters" != 0 ] || [ "$num_jobs_final" -gt 1 ]; then
    echo "$0: --mmi-epochs takes the models of stage 4: not with --realign-iters or --num-jobs-final > 1" >&2; exit 1
  fi
}

make_dengraph() {
  local dg=$exp/strode_dengraph den=${lang}_den mdir; mdir=$(dirname $decode_mdl)
  if unit_done $dg; then echo "   $dg: done before ($dg/.done)"; return 0; fi
  [ -f $mdir/tree ] || { echo "$0: --mmi-epochs: no $mdir/tree (the tree of the networks' targets, beside $decode_mdl) for the denominator graph" >&2; exit 1; }
  rm -rf $den $dg; cp -r $lang $den; rm -f $den/.done; mkdir -p $dg/log
  # make_unigram_grammar.pl: each word of the text (and </s>, once a sentence) at its relative
  # frequency; the words of the lexicon the text lacks get none.
  cut -d' ' -f2- $tr/text | awk '{ for (i = 1; i <= NF; i++) n[$i]++; n["</s>"]++; tot += NF + 1 }
    END { print "\\data\\"; print "ngram 1=" length(n) + 1; print ""; print "\\1-grams:"; print "-99\t<s>"
          for (w in n) printf "%.7f\t%s\n", log(n[w] / tot) / log(10), w; print ""; print "\\end\\" }' > $dg/unigram.arpa
  quietly $dg/log/arpa2fst.log $strode arpa2fst --disambig-symbol=#0 --read-symbol-table=$lang/words.txt $dg/unigram.arpa $den/G.fst
  quietly $dg/log/mkgraph.log $strode mkgraph $den $mdir $dg
  mark_done $dg
  echo "   $dg/HCLG.fst (unigram of $(grep -c . $tr/text) training sentences): $(grep -h -o 'HCLG[^;]*' $dg/log/mkgraph.log | tail -n 1)"
}

train_mmi() {
  local r=$1 m mdir lats out j num=$final_ali
  m=$(run_name $r); mdir=$exp/$m; lats=$exp/${m}_denlats; out=$exp/$(run_name "${r%%:*}_$sequence_criterion:${r#*:}")
  if unit_done $out; then echo "   $(basename $out): done before ($out/.done)"; return 0; fi
  j=$(jobs_of $tr)
  if [ "$mmi_ali" = net ]; then
    # nnet1's run_dnn.sh: the numerator is the network's own alignment (steps/nnet/align.sh),
    # so that its states lie on the paths the denominator lattices hold.
    num=$exp/${m}_ali
    if ! unit_done $num; then
      echo "   aligning the training data with $m into $(basename $num)"
      align_with $mdir/final.am $mdir/pdf.counts $final_ali $num
      mark_done $num
    fi
  fi
  if ! unit_done $lats; then
    rm -rf $lats; mkdir -p $lats/log; echo $j > $lats/num_jobs
    quietly $lats/log/split.log $strode split-data $tr $j
    $cmd JOB=1:$j $lats/log/decode_den.JOB.log \
      $strode forward --no-softmax=true --class-frame-counts=$mdir/pdf.counts $(cmvn_of $(nnet_dir $nnet_train)) $mdir/final.am \
        "$(feats_of $tr/split$j/JOB)" ark:- \| \
      $strode latgen-faster-mapped --acoustic-scale=0.1 --beam=13 --lattice-beam=7 --max-active=5000 \
        --word-symbol-table=$exp/strode_dengraph/words.txt $decode_mdl $exp/strode_dengraph/HCLG.fst ark:- "ark:| gzip -c > $lats/lat.JOB.gz"
    mark_done $lats
    echo "   $(basename $lats): $(grep -h -o 'Done [0-9]* utterances, failed for [0-9]*' $lats/log/decode_den.*.log | awk '{d += $2; f += $6} END {print d " lattices, " f " failed"}')"
  fi
  mkdir -p $out/log
  local crit="--criterion=mmi"
  [ "$sequence_criterion" = smbr ] && crit="--criterion=smbr --silence-phones=$(cat $lang/phones/silence.csl) --one-silence-class=true"
  echo "   training $(basename $out): $mmi_epochs epochs of $(criterion_name) from $m (log: $out/log/train.log)"
  # --frame-shuffle=false after --MODEL-opts: sequence training reads whole utterances (nnet1's
  # nnet-train-mmi-sequential), however the cross-entropy model's minibatches were drawn.
  $cmd $out/log/train.log $strode train $(model_flags ${r%%:*}) --seed=${r#*:} $(pipeline_flags) $causal_flag \
    --transition-model=$final_ali/final.mdl "--feature-description=$(feat_description)" "--cv-feats=$(feats_of $cv)" \
    --init-model=$mdir/final.am "--den-lats=ark:gunzip -c $lats/lat.*.gz |" --class-frame-counts=$mdir/pdf.counts $crit \
    --newbob=false --keep-last=true --patience=$((mmi_epochs + 1)) --max-iters=$mmi_epochs \
    --learning-rate=$mmi_learning_rate --curves-png=$out/curves.png $(own_opts ${r%%:*}) --frame-shuffle=false $mmi_opts \
    "$(feats_of $tr)" "ark:gunzip -c $num/ali.*.gz |" $out/final.am ||
    { echo "$0: sequence training of $m failed, see $out/log/train.log" >&2; exit 1; }
  cp $mdir/pdf.counts $out/pdf.counts; ln -sfn "$(cd $num && pwd)" $out/ali
  grep -h -E '(MMI|sMBR) objective' $out/log/train.log | sed 's/^LOG (strode train) /   /' | cut -c1-150 || true
  mark_done $out
}

mmi_runs() {
  local r
  for r in "${runs[@]}"; do echo "$r"; [ "$mmi_epochs" = 0 ] || echo "${r%%:*}_$sequence_criterion:${r#*:}"; done
}
