#!/usr/bin/env bash
# kill -9 during training, then --resume: bitwise the same model as an uninterrupted run?
#   recipes/fsdd/resume_check.sh [--strode BIN] exp/fsdd     (after run.sh has made exp/fsdd/strode_mono_ali2)
# Trains a small strode model for 3 epochs uninterrupted (a.am) and again with
# a kill -9 in epoch 2 then --resume (b.am); prints both parameter SHA-256s.
# The free b(z) and SpecAugment masks are on, so their random draws are covered.
# The strode binary: --strode BIN, else $STRODE, else bin/strode, built when stale.
set -u
strode=
. "$(dirname "$0")/../local/parse_options.sh"
[ $# = 1 ] || { print_usage >&2; exit 1; }
. "$(dirname "$0")/../local/strode_bin.sh"
# The work happens in a scratch folder: absolute paths.
case "$strode" in */*) S=$(cd "$(dirname "$strode")" && pwd)/$(basename "$strode") ;; *) S=$strode ;; esac
D=$(cd "$1" && pwd)
opts="--preset=small --sru-hidden=64 --sru-layers=2 --ode-state=16 --ode-hidden=16 --phi-hidden=16 --prior-hidden=16 --phi-z=free --freq-masks=1 --freq-mask-width=3 --time-masks=1 --time-mask-width=4 --model=strode --max-iters=3 --seed=5 --utt-cmvn=true --norm-vars=true --transition-model=$D/strode_mono_ali2/final.mdl --cv-fraction=0.25"
feats=scp:$D/data-fbank/train/feats.scp
ali="ark:gunzip -c $D/strode_mono_ali2/ali.*.gz |"
w=$(mktemp -d); cd "$w"; echo "work dir $w"
$S train $opts --checkpoint=a.ckpt $feats "$ali" a.am 2> a.log
$S train $opts --checkpoint=b.ckpt $feats "$ali" b.am 2> b1.log &
pid=$!
# kill -9 in the middle of epoch 2 (after the first checkpoint exists)
while [ ! -f b.ckpt ]; do sleep 1; done
sleep 8
kill -9 $pid; wait $pid; echo "killed: exit $?"
grep -a "epoch [0-9]*:" b1.log | sed 's/.*LOG (strode train)//'
$S train $opts --checkpoint=b.ckpt --resume=true $feats "$ali" b.am 2> b2.log
grep -a "resumed\|epoch [0-9]*:" b2.log | sed 's/.*LOG (strode train)//'
$S model-info a.am | grep sha256
$S model-info b.am | grep sha256
a=$($S model-info a.am | grep -o 'sha256 [0-9a-f]*')
b=$($S model-info b.am | grep -o 'sha256 [0-9a-f]*')
if [ "$a" = "$b" ]; then echo "bitwise identical: $a"; else echo "DIFFERENT: $a vs $b"; exit 1; fi
