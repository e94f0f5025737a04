// Package modelfile reads and writes model parameters in the safetensors
// format (https://github.com/huggingface/safetensors), so any safetensors
// reader (Python's safetensors, PyTorch, candle) opens our models:
//
//	bytes 0–7   N, the header length, unsigned 64-bit little-endian
//	bytes 8…    the header: N bytes of UTF-8 JSON, padded with spaces to a
//	            multiple of 8, mapping each tensor name to
//	            {"dtype": "F64"|"F32", "shape": [d0, d1, …], "data_offsets": [begin, end]}
//	            and the optional key "__metadata__" to a map of strings
//	            (we store the model options and the training settings there)
//	bytes 8+N…  the data buffer: each tensor's row-major little-endian values
//	            at [begin, end) relative to the buffer start, in order,
//	            without gaps or overlap.
//
// Writers write to a temporary file in the target directory and rename it,
// so a crash never leaves a half-written model. The reader checks every
// field (lengths, offsets, shapes, dtypes, coverage of the buffer) and its
// errors name the file and the byte offset.
package modelfile
