// Generated large meshes for the bench: the size of a fine scan (about 2 million triangles, 98 MB of
// binary STL), which no shared model reaches. A sphere 80 mm across whose radius ripples by 3 %, cut
// into a latitude-longitude grid; the open variant lacks a slot three cells wide down most of one
// side, as scans often lack part of their surface, so its every layer has to be closed by the slicer.

/** Binary STL of the sphere: `rings` rings of 2·rings cells, 2·rings·cols − 2·cols triangles closed (1,957,200 at 700). */
export function wavySphereStl(rings: number, open: boolean): Buffer {
  const cols = 2 * rings;
  const r0 = 40;
  const at = (i: number, j: number): number[] => {
    // the poles exactly: sin(π) is not 0 in floating point, and one pole point per column would not weld
    if (i === 0 || i === rings) return [0, 0, (i === 0 ? 1 : -1) * r0 + 1.1 * r0];
    const th = (Math.PI * i) / rings;
    const ph = (2 * Math.PI * (j % cols)) / cols;
    const r = r0 * (1 + 0.03 * Math.sin(7 * ph) * Math.sin(5 * th));
    return [r * Math.sin(th) * Math.cos(ph), r * Math.sin(th) * Math.sin(ph), r * Math.cos(th) + 1.1 * r0];
  };
  const buf = Buffer.alloc(84 + 50 * 2 * rings * cols);
  let n = 0;
  const put = (...corners: number[][]) => {
    let o = 84 + 50 * n + 12; // the normal stays zero: readers work it out from the corners
    for (const p of corners) for (const v of p) o = buf.writeFloatLE(v, o);
    n++;
  };
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < cols; j++) {
      if (open && j < 3 && i > rings / 10 && i < rings - rings / 10) continue;
      const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      // next to a pole, one triangle of the cell has two corners on the pole: left out
      if (i < rings - 1) put(a, b, c);
      if (i > 0) put(a, c, d);
    }
  }
  buf.writeUInt32LE(n, 80);
  return buf.subarray(0, 84 + 50 * n);
}
