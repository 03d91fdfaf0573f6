// How much layer work a mesh makes, known before slicing: about how many vertices its layers'
// cross-sections will hold in all. Every triangle crosses one layer per layer height it spans, and
// each crossing is a cross-section vertex, so the sum over triangles of (height ÷ layer height)
// estimates them; the work of walls, skins and infill grows with it. The CLI picks the WASM tier
// by it (src/cli/wasm-tier.ts) and the pipeline decides by it whether layer threads pay.

/**
 * Σ over triangles of their height in layers. `positions` (x, y, z per vertex) and `layerHeight`
 * in the same unit.
 */
export function crossSectionVertices(positions: ArrayLike<number>, indices: ArrayLike<number>, layerHeight: number): number {
  let sum = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = positions[indices[t]! * 3 + 2]!;
    const b = positions[indices[t + 1]! * 3 + 2]!;
    const c = positions[indices[t + 2]! * 3 + 2]!;
    sum += Math.max(a, b, c) - Math.min(a, b, c);
  }
  return layerHeight > 0 ? sum / layerHeight : Infinity;
}
