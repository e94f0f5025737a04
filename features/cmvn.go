package features

import (
	"errors"
	"fmt"
	"math"
)

// ErrCmvn marks CMVN statistics that cannot be applied.
var ErrCmvn = errors.New("bad CMVN statistics")

// CMVN statistics are Kaldi's 2×(dim+1) double matrix, stored row-major:
// row 0 holds Σx_d and, in the last column, the frame count; row 1 holds
// Σx_d² (its last column stays 0).

// NewCmvnStats returns zero statistics for features of dimension dim.
func NewCmvnStats(dim int) []float64 { return make([]float64, 2*(dim+1)) }

// AccCmvnStats adds the rows of feats (rows × dim, row-major) to stats, as
// Kaldi's AccCmvnStats with weight 1: the products x·x are formed in float
// and then summed in double, as Kaldi does.
func AccCmvnStats(stats []float64, feats []float32, rows, dim int) error {
	if len(stats) != 2*(dim+1) {
		return fmt.Errorf("%w: stats have %d values, features have dimension %d", ErrCmvn, len(stats), dim)
	}
	mean, vars := stats[:dim], stats[dim+1:2*dim+1]
	for r := 0; r < rows; r++ {
		row := feats[r*dim : (r+1)*dim]
		for d, x := range row {
			mean[d] += float64(x)
			vars[d] += float64(x * x)
		}
	}
	stats[dim] += float64(rows)
	return nil
}

// AccCmvnStatsWeighted is Kaldi's AccCmvnStats with per-frame weights
// (compute-cmvn-stats --weights): frames of weight 0 are skipped; otherwise
// the count grows by w and the sums by float(x·w) and float(float(x·x)·w),
// the products in float as Kaldi forms them.
func AccCmvnStatsWeighted(stats []float64, feats []float32, rows, dim int, weights []float32) error {
	if len(stats) != 2*(dim+1) {
		return fmt.Errorf("%w: stats have %d values, features have dimension %d", ErrCmvn, len(stats), dim)
	}
	if len(weights) != rows {
		return fmt.Errorf("%w: %d weights for %d frames", ErrCmvn, len(weights), rows)
	}
	mean, vars := stats[:dim], stats[dim+1:2*dim+1]
	for r, w := range weights {
		if w == 0 {
			continue
		}
		stats[dim] += float64(w)
		for d, x := range feats[r*dim : (r+1)*dim] {
			mean[d] += float64(x * w)
			vars[d] += float64(float32(x*x) * w)
		}
	}
	return nil
}

// cmvnCount checks stats of statsRows rows against features of dim columns,
// as Kaldi's ApplyCmvn and ApplyCmvnReverse do, and returns the frame count.
func cmvnCount(stats []float64, statsRows int, normVars bool, rows, dim int) (float64, error) {
	if statsRows < 1 || statsRows > 2 || len(stats) != statsRows*(dim+1) {
		return 0, fmt.Errorf("%w: dim mismatch: cmvn %dx%d, feats %dx%d", ErrCmvn, statsRows, len(stats)/max(statsRows, 1), rows, dim)
	}
	if statsRows == 1 && normVars {
		return 0, fmt.Errorf("%w: you requested variance normalization but no variance stats are supplied", ErrCmvn)
	}
	count := stats[dim]
	if !(count >= 1) { // also NaN
		return 0, fmt.Errorf("%w: insufficient stats for cepstral mean and variance normalization: count = %v", ErrCmvn, count)
	}
	return count, nil
}

// ApplyCmvn normalises feats (rows × dim) in place with stats of 1 or 2 rows
// and dim+1 columns (statsRows gives which): Kaldi's ApplyCmvn. Means only:
// x + float(−1/count)·Σx. With variances: x·scale + offset in float, where
// scale = 1/√var (var floored at 1e-20, with Kaldi's warning returned) and
// offset = −mean·scale.
func ApplyCmvn(stats []float64, statsRows int, normVars bool, feats []float32, rows, dim int) (warnings []string, err error) {
	count, err := cmvnCount(stats, statsRows, normVars, rows, dim)
	if err != nil {
		return nil, err
	}
	offset := make([]float32, dim)
	if !normVars {
		alpha := float32(-1 / count)
		for d := range offset {
			offset[d] = float32(float64(alpha) * stats[d])
		}
		for r := 0; r < rows; r++ {
			row := feats[r*dim : (r+1)*dim]
			for d := range row {
				row[d] += offset[d]
			}
		}
		return nil, nil
	}
	scale := make([]float32, dim)
	for d := 0; d < dim; d++ {
		mean := stats[d] / count
		v := stats[dim+1+d]/count - mean*mean
		const floor = 1e-20
		if v < floor {
			warnings = append(warnings, fmt.Sprintf("Flooring cepstral variance from %v to %v", v, floor))
			v = floor
		}
		s := 1 / math.Sqrt(v)
		if s != s || 1/s == 0 {
			return warnings, fmt.Errorf("%w: NaN or infinity in cepstral mean/variance computation", ErrCmvn)
		}
		offset[d] = float32(-(mean * s))
		scale[d] = float32(s)
	}
	for r := 0; r < rows; r++ {
		row := feats[r*dim : (r+1)*dim]
		for d := range row {
			row[d] = float32(row[d]*scale[d]) + offset[d]
		}
	}
	return warnings, nil
}

// ApplyCmvnReverse is Kaldi's ApplyCmvnReverse (apply-cmvn --reverse): the
// transform that takes zero-mean, unit-variance input to data with the
// statistics' mean (and, with normVars, variance): x + float(mean), or
// float(x·float(√var)) + float(mean) with var floored at 1e-20 (Kaldi's
// warning returned).
func ApplyCmvnReverse(stats []float64, statsRows int, normVars bool, feats []float32, rows, dim int) (warnings []string, err error) {
	count, err := cmvnCount(stats, statsRows, normVars, rows, dim)
	if err != nil {
		return nil, err
	}
	offset := make([]float32, dim)
	scale := make([]float32, dim)
	for d := 0; d < dim; d++ {
		mean := stats[d] / count
		offset[d], scale[d] = float32(mean), 1
		if normVars {
			v := stats[dim+1+d]/count - mean*mean
			const floor = 1e-20
			if v < floor {
				warnings = append(warnings, fmt.Sprintf("Flooring cepstral variance from %v to %v", v, floor))
				v = floor
			}
			scale[d] = float32(math.Sqrt(v))
		}
	}
	for r := 0; r < rows; r++ {
		row := feats[r*dim : (r+1)*dim]
		for d := range row {
			if normVars {
				row[d] = float32(row[d] * scale[d])
			}
			row[d] += offset[d]
		}
	}
	return warnings, nil
}
