// CRC-32 as zip and PNG use it (reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF):
// well known, so any FCode reader can check blocks with its platform's own implementation.

const TABLE: Uint32Array = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of bytes[start, end), continuing from `crc` (the result of an earlier call) when given. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = start; i < end; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
