package seqvideo

import (
	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// rotationHorizon is the number of gaps one solve spans in the phase-state
// variant.
const rotationHorizon = 3

// turnGainInit is the starting weight c of the registered turn in Φ's
// b(·), and 1/c the starting ω (model.go).
const turnGainInit = 4

// newOmega adds phase-state's angular speed ω (1×1, radians per unit of
// inferred time), 1 at the start: every initial gap is ≈ ln 2, a turn of
// 40°, about the Hawkes subset's mean step of 30°.
func newOmega(ps *nn.Params) *optim.Param {
	w := ps.Zero("ode.omega", 1, 1)
	w.Data[0] = 1
	return w
}

// rotationLoss sets bt.Pred, bt.MSE and bt.Loss (without the KL term) for
// the phase-state variant. The state is the frame's code and an angle,
// (z_i, φ), with dz/dτ = 0 and dφ/dτ = ω: it is decoded by drawing dec(z_i)
// turned by φ about the canvas centre (rotateFrames), the group action the
// data's frames have. From every frame the angle runs over the next gap
// and on over the two after it; the loss is the mean of four MSEs: x_i
// (φ = 0) and the next three frames. A gap can then only be a turn, and
// the turns must compose. bt.MSE stays the reference's one-step MSE.
func (m *Model) rotationLoss(bt *Batch, net *nn.Net, x, y, z, spans *autodiff.Node) {
	if m.Opts.Variant == VariantPose {
		m.poseLoss(bt, net, x, y, z)
		return
	}
	b, n := bt.B, bt.N
	omega := net.P(m.Omega)
	img := m.Dec.Apply(net, z)
	angle := net.MatMul(spans, omega) // φ after one gap, row i: ω·g_{i+1} (0 for the last frame)
	frames := []*autodiff.Node{img}
	angles := []*autodiff.Node{angle}
	targets := []*autodiff.Node{y}
	for k := 2; k <= rotationHorizon && k < n; k++ {
		// rows i = 0 … n−1−k: the angle after k gaps, φ + ω·g_{i+k} (spans block i+k−1).
		angle = net.Add(net.Rows(angle, 0, (n-k)*b), net.MatMul(net.Rows(spans, (k-1)*b, (n-1)*b), omega))
		frames = append(frames, net.Rows(img, 0, (n-k)*b))
		angles = append(angles, angle)
		targets = append(targets, net.Rows(x, k*b, n*b))
	}
	pred := rotateFrames(net, net.ConcatRows(frames...), net.ConcatRows(angles...))
	bt.Pred = net.Rows(pred, 0, n*b)
	bt.MSE = meanSquaredError(net, bt.Pred, y)
	loss := net.Add(meanSquaredError(net, img, x), bt.MSE)
	off := n * b
	for k := 1; k < len(targets); k++ {
		r := (n - k - 1) * b
		loss = net.Add(loss, meanSquaredError(net, net.Rows(pred, off, off+r), targets[k]))
		off += r
	}
	bt.Loss = net.Scale(loss, 1/float64(len(targets)+1))
}

// pairB is b(·) of the frame pair (z_{i−1}, z_i), z_{−1} := z_0:
// tanh((z_{i−1}·V1' + z_i·V1”)·V2)·V3 with V1 = [V1'; V1”], so that a gap
// can be read from the change between two frames.
func (m *Model) pairB(net *nn.Net, z *autodiff.Node, b, n int) *autodiff.Node {
	d := m.Opts.Latent()
	bd := m.Boundary
	v1 := net.P(bd.V1)
	prev := net.ConcatRows(net.Rows(z, 0, b), net.Rows(z, 0, (n-1)*b))
	u := net.Add(net.MatMul(prev, net.Rows(v1, 0, d)), net.MatMul(z, net.Rows(v1, d, 2*d)))
	return net.MatMul(net.Tanh(net.MatMul(u, net.P(bd.V2))), net.P(bd.V3))
}

// poseLoss is rotationLoss for the pose variant: the angle is carried
// across the whole video from φ(0) = 0, so frame j is drawn from frame i's
// code as dec(z_i) turned by ω·t_j, the absolute time (t_j = Σ_{k≤j} g_k,
// g_0 = t_0 = Φ(0, ·)), and dec(z_i) must show frame i turned back by ω·t_i:
// a digit in one canonical pose. The four MSEs are phase-state's: x_i
// (now turned by ω·t_i) and the next three frames. Where phase-state's
// drawing is blind to a shift of every time (only differences turn the
// frames), here t_0 is the first frame's turn from the canonical pose, and
// the registration term pins that pose to PoseAngle's (batch.go).
func (m *Model) poseLoss(bt *Batch, net *nn.Net, x, y, z *autodiff.Node) {
	b, n := bt.B, bt.N
	img := m.Dec.Apply(net, z)
	t := net.Rows(bt.Gaps, 0, b)
	times := []*autodiff.Node{t}
	for i := 1; i < n; i++ {
		t = net.Add(t, net.Rows(bt.Gaps, i*b, (i+1)*b))
		times = append(times, t)
	}
	abs := net.MatMul(net.ConcatRows(times...), net.P(m.Omega)) // row block i: ω·t_i
	// Frame i itself, then frame min(i+1, n−1) (the reference's output
	// layout), then frames i+2 and i+3 where the video has them.
	frames := []*autodiff.Node{img, img}
	angles := []*autodiff.Node{abs, net.ConcatRows(net.Rows(abs, b, n*b), net.Rows(abs, (n-1)*b, n*b))}
	targets := []*autodiff.Node{x, y}
	for k := 2; k <= rotationHorizon && k < n; k++ {
		frames = append(frames, net.Rows(img, 0, (n-k)*b))
		angles = append(angles, net.Rows(abs, k*b, n*b))
		targets = append(targets, net.Rows(x, k*b, n*b))
	}
	pred := rotateFrames(net, net.ConcatRows(frames...), net.ConcatRows(angles...))
	bt.Pred = net.Rows(pred, n*b, 2*n*b)
	bt.MSE = meanSquaredError(net, bt.Pred, y)
	loss := net.Add(meanSquaredError(net, net.Rows(pred, 0, n*b), x), bt.MSE)
	off := 2 * n * b
	for k := 2; k < len(targets); k++ {
		r := (n - k) * b
		loss = net.Add(loss, meanSquaredError(net, net.Rows(pred, off, off+r), targets[k]))
		off += r
	}
	bt.Loss = net.Scale(loss, 1/float64(len(targets)))
}
