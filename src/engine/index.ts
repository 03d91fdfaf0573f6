// The engine's public surface: everything outside src/engine imports from here.
export { slice, type PipelineOptions } from './pipeline.js';
export { runLayerBatchEncoded, type LayerBatch, type LayerExecutor, type LayerProgress, type EncodedBatchResult } from './batch.js';
export { initGeometry, geometryMemoryBytes } from './geom/clipper.js';
export * from './types.js';
export type * from './settings.js';
