// FCode's public surface (docs/fcode.md): encode, decode, read the header, and the error type.
export { encodeFCode, type EncodeOptions } from './fcode-encoder.js';
export { decodeFCode, readFCodeHeader, type DecodedFCode, type FCodeHeader } from './fcode-decoder.js';
export { FCodeError, type FCodeErrorCode, type AxisDecimals } from './fcode-format.js';
export type { FCodeMetadata } from './fcode-metadata.js';
export { metadataFromGcode, metadataFromSlice } from './fcode-gcode-meta.js';
export { crc32 } from './fcode-crc.js';
