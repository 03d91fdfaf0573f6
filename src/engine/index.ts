// The engine's public surface: everything outside src/engine imports from here.
export { slice } from './pipeline.js';
export { initGeometry } from './geom/clipper.js';
export * from './types.js';
export type * from './settings.js';
