// Layer heights: the first layer at firstLayerHeight, the rest at layerHeight, up to the model's top.
// Each layer is cut through its middle (the plane that best represents the slab it prints).

export interface LayerSpec {
  index: number;
  /** nozzle height: top of the layer, µm */
  z: number;
  /** thickness, µm */
  height: number;
  /** cutting plane, µm */
  sliceZ: number;
}

export function layerSpecs(modelHeightUm: number, firstLayerHeightMm: number, layerHeightMm: number): LayerSpec[] {
  const h0 = Math.round(firstLayerHeightMm * 1000);
  const h = Math.round(layerHeightMm * 1000);
  if (h <= 0 || h0 <= 0) return [];
  // as many layers as needed for their tops to reach the model top (a last partial layer counts
  // when more than half of it is model)
  const count = modelHeightUm <= h0 ? 1 : Math.ceil((modelHeightUm - h0) / h - 0.5 + 1e-9) + 1;
  const out: LayerSpec[] = [];
  for (let i = 0; i < count; i++) {
    const z = h0 + i * h;
    const height = i === 0 ? h0 : h;
    out.push({ index: i, z, height, sliceZ: z - height / 2 });
  }
  return out;
}
