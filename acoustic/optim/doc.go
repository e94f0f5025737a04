// Package optim holds trainable parameters and the optimizers that update
// them: Adam and SGD with momentum, gradient-norm clipping, and a hook run
// after every step that by default projects each parameter onto its sign set
// (the monotonicity constraints of STRODE's Φ and φ).
//
// A Param is a row-major matrix with its gradient beside it; graph nodes share
// the Data slice, so an update in place is seen by the next forward pass.
package optim
