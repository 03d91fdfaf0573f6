// Model input: file bytes → indexed triangle mesh in millimetres.
export { parseModel, detectFormat, type ModelFormat } from './parse-model.js';
export { meshBounds } from './bounds.js';
