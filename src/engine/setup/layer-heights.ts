// Layer heights: the first layer at firstLayerHeight, the rest at layerHeight, up to the model's top.
// Each layer is cut through its middle (the plane that best represents the slab it prints).
// With a raft, the raft's layers come first and the model's layers are raised above them.

export interface LayerSpec {
  index: number;
  /** nozzle height: top of the layer, µm */
  z: number;
  /** thickness, µm */
  height: number;
  /** cutting plane, µm, in the model's frame (the model stands on z = 0); negative on raft layers */
  sliceZ: number;
  /** a raft layer: no model on it */
  raft?: boolean;
}

/** The raft under the model: its layer thicknesses (bottom first) and the gap above it, µm. */
export interface RaftSpec {
  heights: number[];
  airGap: number;
}

export function layerSpecs(modelHeightUm: number, firstLayerHeightMm: number, layerHeightMm: number, raft?: RaftSpec): LayerSpec[] {
  const h0 = Math.round(firstLayerHeightMm * 1000);
  const h = Math.round(layerHeightMm * 1000);
  if (h <= 0 || h0 <= 0) return [];
  const out: LayerSpec[] = [];
  let base = 0;
  for (const rh of raft?.heights ?? []) {
    base += rh;
    out.push({ index: out.length, z: base, height: rh, sliceZ: -1, raft: true });
  }
  // the model's first layer sits on the raft's top plus the air gap
  if (raft && raft.heights.length > 0) base += raft.airGap;
  // as many layers as needed for their tops to reach the model top (a last partial layer counts
  // when more than half of it is model)
  const count = modelHeightUm <= h0 ? 1 : Math.ceil((modelHeightUm - h0) / h - 0.5 + 1e-9) + 1;
  for (let i = 0; i < count; i++) {
    const top = h0 + i * h;
    const height = i === 0 ? h0 : h;
    out.push({ index: out.length, z: base + top, height, sliceZ: top - height / 2 });
  }
  return out;
}
