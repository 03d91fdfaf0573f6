// Layer slicing: placed triangles → closed cross-section areas per plane, integer µm.
export { sliceMesh, sliceMeshSteps, SIMPLIFY_TOLERANCE_UM, type SliceReport } from './slice-mesh.js';
export { trianglesPerRange } from './triangles-per-range.js';
