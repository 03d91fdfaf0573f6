// v0.2 placement of the STL: `position`, `scale`, `rotation`, each {X, Y, Z} (any key casing),
// turned into the engine's ModelTransform. Units: mm, factors, degrees. Absent (or null) objects or axes take
// the identity (0 offset, scale 1, no rotation). See docs/api-legacy.md for the meaning.
import type { ModelTransform } from '../engine/types.js';
import { badRequest } from './errors.js';
import { field, fold, isObject, type Fields } from './legacy-keys.js';

const MAX_SCALE = 100;
const MAX_OFFSET_MM = 10_000;

function axes(f: Fields, name: string, identity: number): [number, number, number] | undefined {
  const raw = field(f, name);
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (!isObject(raw)) throw badRequest(`${name} must be an object with X, Y and Z`);
  const xyz = fold(raw);
  return (['x', 'y', 'z'] as const).map((a) => {
    const v = xyz.get(a);
    if (v === undefined || v === null || v === '') return identity;
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw badRequest(`${name}.${a.toUpperCase()} must be a number`);
    return n;
  }) as [number, number, number];
}

/** The transform, or undefined when every part is the identity (the STL is centred as in v1). */
export function parseLegacyTransform(f: Fields): ModelTransform | undefined {
  const position = axes(f, 'position', 0);
  const scale = axes(f, 'scale', 1);
  const rotation = axes(f, 'rotation', 0);
  const t: ModelTransform = {};
  if (scale && scale.some((v) => v !== 1)) {
    for (const v of scale) if (!(v > 0 && v <= MAX_SCALE)) throw badRequest(`scale factors must be above 0 and at most ${MAX_SCALE}, not ${v}`);
    t.scale = scale;
  }
  if (rotation && rotation.some((v) => v !== 0)) t.rotation = rotation.map((d) => d % 360) as [number, number, number];
  if (position && (position[0] !== 0 || position[1] !== 0)) {
    for (const v of position) if (Math.abs(v) > MAX_OFFSET_MM) throw badRequest(`position is off the bed by far: ${v} mm`);
    // Z is not used: the model is always dropped onto the bed
    t.position = [position[0], position[1]];
  }
  return Object.keys(t).length ? t : undefined;
}
