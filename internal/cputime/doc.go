// Package cputime reads the CPU time the process has used, user and system,
// over all its threads, and its peak resident memory. Benchmarks report it per operation beside the wall
// time: on a shared, loaded machine the CPU time says what the work costs,
// which the wall time does not, and against a multi-threaded peer it is the
// like-for-like figure.
package cputime
