package gmm

// NewAccumAmDiagGmmDim is an empty accumulator with am's pdfs and Gaussians
// but statistics of dimension dim, for features other than the model's
// (Kaldi's AccumAmDiagGmm::Init(model, dim, flags), as
// gmm-acc-stats-twofeats initializes it once it knows the second features'
// dimension).
func NewAccumAmDiagGmmDim(am *AmDiagGmm, dim int, flags uint16) *AccumAmDiagGmm {
	a := &AccumAmDiagGmm{Accs: make([]AccumDiagGmm, am.NumPdfs())}
	for i := range am.Pdfs {
		a.Accs[i] = NewAccumDiagGmm(am.Pdfs[i].NumGauss(), dim, flags)
	}
	return a
}

// AccumulateForGmmTwofeats is Kaldi's AccumulateForGmmTwofeats: the
// Gaussian posteriors of pdf are computed on x1 (the model's features),
// scaled by weight, and the statistics accumulated on x2 (of the
// accumulator's dimension). It returns the log-likelihood of x1.
func (a *AccumAmDiagGmm) AccumulateForGmmTwofeats(am *AmDiagGmm, x1, x2 []float32, pdf int, weight float32) float32 {
	g := &am.Pdfs[pdf]
	n := g.NumGauss()
	if cap(a.posteriorsG) < n {
		a.posteriorsG = make([]float32, n)
	}
	post := a.posteriorsG[:n]
	ll := g.ComponentPosteriors(x1, post)
	for i := range post {
		post[i] *= weight
	}
	a.Accs[pdf].AccumulateFromPosteriors(x2, post)
	a.TotLogLike += float64(ll) * float64(weight)
	a.TotFrames += float64(weight)
	return ll
}
