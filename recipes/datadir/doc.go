// Package datadir reads, checks, splits and subsets Kaldi data directories
// (data/train: utt2spk, spk2utt, text, wav.scp, segments, feats.scp,
// cmvn.scp, utt2dur, ...) the way Kaldi's utils/*.sh scripts do, so a recipe
// runs without Kaldi's utils/: Split is utils/split_data.sh (speaker-wise as
// split_scp.pl --utt2spk, or utterance-wise), Validate is
// utils/validate_data_dir.sh, Fix is utils/fix_data_dir.sh, SubsetTrCv is
// utils/subset_data_dir_tr_cv.sh, and Utt2SpkToSpk2Utt is
// utils/utt2spk_to_spk2utt.pl.
//
// Every file is a Table: lines keyed by their first white-space separated
// field, kept verbatim with their line numbers, so a problem is reported as
// file:line with the key, and filtered copies keep each kept line byte for
// byte. Sorting is C (byte) order, as Kaldi's scripts run with LC_ALL=C.
// Every file written goes through internal/atomicfile, so an interrupted run
// leaves each file either old or new, never half-written.
package datadir
