// Model input: file bytes → indexed triangle mesh in millimetres.
export { parseModel, parseModelParts, trianglesOf, detectFormat, type ModelFormat, type ModelPart } from './parse-model.js';
export { meshBounds } from './bounds.js';
