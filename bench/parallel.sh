#!/usr/bin/env bash
# Data-parallel training (strode train-parallel) on ../shared/kaldi-mini:
# held-out frame accuracy and wall time per epoch with N = 1, 2, 4 local jobs over
# seeds. The N = 1 runs are the single-job reference of the same run (no peer
# toolkit: the comparison is N jobs with model averaging against one).
#
#   bench/parallel.sh [--jobs "1 2 4"] [--seeds "1 2 3"] [--epochs 10] [--work DIR] [--strode BIN]
#
# Data: kaldi-mini's 160 training utterances, fbank 23 + per-speaker CMVN (means and
# variances), spliced +-2; speakers spk01 and spk08 (20 utterances) held out; targets
# from exp/mono/ali.1.gz (62 pdfs). get-egs writes 4 archives (35 utterances each).
# Model: sru, 2 layers x 64 (46k parameters); Adam, 4 utterances per minibatch;
# effective learning rate 0.003 -> 0.0003 (a job's rate is that times N, as nnet3).
# Jobs run through `strode run.pl --max-jobs-run N`, all on this machine.
set -euo pipefail
jobs="1 2 4"; seeds="1 2 3"; epochs=10; work=/tmp/strode-bench-parallel; strode=
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 0 ] || { echo "$0: unexpected argument $1" >&2; exit 1; }
mini=$root/../shared/kaldi-mini
[ -f $mini/MANIFEST.md ] || { echo "$0: needs ../shared/kaldi-mini" >&2; exit 1; }
. "$root/recipes/local/strode_bin.sh"
S=$strode
mkdir -p $work/data; cd $work
if [ ! -f egs/info/num_archives ]; then
  cp $mini/data/train/{utt2spk,spk2utt} data/
  (cd $mini && $S compute-fbank-feats --num-mel-bins=23 --dither=0 scp:data/train/wav.scp ark,scp:$work/data/fbank.ark,$work/data/feats.scp) 2>/dev/null
  $S compute-cmvn-stats --spk2utt=ark:data/spk2utt scp:data/feats.scp ark:data/cmvn.ark 2>/dev/null
  grep -E "^(spk01|spk08)-" data/feats.scp > data/cv.scp
  grep -vE "^(spk01|spk08)-" data/feats.scp > data/tr.scp
  $S get-egs --num-archives=4 --num-utts-subset=20 --transition-model=$mini/exp/mono/final.mdl \
    --cmvn=ark:data/cmvn.ark --utt2spk=ark:data/utt2spk --norm-vars=true --left-context=2 --right-context=2 \
    --cv-feats=scp:data/cv.scp scp:data/tr.scp "ark:gunzip -c $mini/exp/mono/ali.1.gz |" egs 2>&1 | tail -1
fi
echo "nproc $(nproc); $(grep -m1 'model name' /proc/cpuinfo); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-3s %-5s %-6s %-10s %-10s %-10s %-8s %s\n" N seed iters last_acc% best_acc% last_CE s/epoch load
for n in $jobs; do
  for s in $seeds; do
    d=exp/n${n}_s$s; rm -rf $d; mkdir -p exp
    $S train-parallel --cmd="$S run.pl --max-jobs-run $n" --num-jobs-initial=$n --num-jobs-final=$n \
      --num-epochs=$epochs --initial-effective-lrate=0.003 --final-effective-lrate=0.0003 --srand=$s \
      --preset=small --model=sru --sru-hidden=64 --sru-layers=2 --minibatch-utts=4 egs $d 2> $d.log
    awk -v n=$n -v s=$s -v load="$(cut -d' ' -f1 /proc/loadavg)" '
      / iter [0-9]+: held-out CE/ { it++; ce=$(NF-0); for (i=1;i<=NF;i++) { if ($i=="CE" && $(i-1)=="held-out") ce=$(i+1); if ($i=="accuracy" && $(i-1)=="frame") acc=$(i+1) }
        sub(/,/,"",ce); sub(/%/,"",acc); last=acc; lastce=ce; if (acc+0>best) best=acc+0 }
      /s per epoch/ { for (i=1;i<=NF;i++) if ($i=="per" && $(i+1)=="epoch") spe=$(i-2) }
      END { printf "%-3s %-5s %-6s %-10s %-10.2f %-10s %-8s %s\n", n, s, it, last, best, lastce, spe, load }' $d.log
  done
done
