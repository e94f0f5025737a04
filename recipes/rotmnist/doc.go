// Package rotmnist is the Rotating MNIST recipe of the STRODE paper (ICML
// 2021, Table 1) and its reference code (Waffle-Liu/STRODE, rotatingMNIST/):
// videos of 6 frames, 64×64, each one MNIST digit (digits 0–8 as the
// reference draws them) pasted near the centre at a position drawn once per
// video and turned counter-clockwise by an angle that grows with time; the
// frame times are the events of a Hawkes process (μ = 1, α = 0.5, β = 1;
// 100° a unit of time; subset "hawkes") or t_i = e^{0.57·i} + N(0, 0.5²)
// (10° a unit; subset "exp"). Training and validation videos turn within
// 0–180°, test videos within 180–360°; 5,000/1,000/1,000 videos; pixels
// 0…1. This part holds the data: a streaming reader of MNIST's IDX files
// (ReadImages, ReadLabels, LoadMNIST), the frame renderer (RenderFrame,
// RenderVideo: PIL's rotate geometry, bilinear by default, nearest as the
// reference), the frame-time samplers (HawkesWindowTimes, ExpTimes) and the
// seeded generator with its options and its single-file format (Generate,
// DataOptions, Dataset.Save, Load), so that every model is trained and
// scored on the same bytes. DATA.md lists every constant with the line of
// the reference code it comes from, and where we differ. The training side
// (Options, Run, Table; `strode rotmnist`, run.sh) trains the four models of
// acoustic/seqvideo on those bytes — strode, unless told otherwise, in its
// pose variant (StrodeVariant): phase-state's timing read off the frames,
// and its first time pinned to the first frame's pose (seqvideo.PoseAngle),
// which CS rewards — and its choices are in the Options comment.
package rotmnist
