// 3MF: a zip holding an XML model part (usually 3D/3dmodel.model, named by _rels/.rels). Every
// object's <vertices>/<triangles> are read; the <build> items say which objects are printed and
// where (3×4 affine transforms, composed through <components>, which may live in other model parts);
// the model's `unit` attribute scales to millimetres.
import { type RawMesh, type RawPart, MAX_TRIANGLES, badModel, tooManyTriangles } from './raw-mesh.js';
import { ZipArchive } from './zip.js';
import { scanXml, type XmlAttributes } from './xml-scan.js';

const UNIT_MM: Record<string, number> = { micron: 0.001, millimeter: 1, centimeter: 10, inch: 25.4, foot: 304.8, meter: 1000 };
/** 3MF affine transform in the file's order: m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32 (row vectors). */
type Transform = number[];
/** Objects a build may place, counting every component reached through every path. */
const MAX_PLACEMENTS = 100_000;
const IDENTITY: Transform = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
const MODEL_REL = 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel';

interface Component {
  objectId: string;
  transform: Transform;
  /** model part holding the object (production extension), or '' for the same part */
  path: string;
}
/** A growable typed array. */
class Growable<T extends Float64Array | Float32Array | Uint32Array> {
  length = 0;
  constructor(public data: T) {}
  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) {
      const next = new (this.data.constructor as new (n: number) => T)(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = a;
    this.data[this.length++] = b;
    this.data[this.length++] = c;
  }
}

interface ModelObject {
  type: string;
  name?: string;
  vertices: Growable<Float64Array>;
  /** vertex indices as read; NaN (not an index) becomes 2^32 − 1, caught by the range check */
  triangles: Growable<Uint32Array>;
  components: Component[];
  /** the vertices its triangles use, made on the first placement (usedVertices) */
  used?: UsedVertices;
}
interface ModelPart {
  unit: number;
  objects: Map<string, ModelObject>;
  items: Component[];
}

function parseTransform(text: string | undefined, where: string): Transform {
  if (text === undefined) return IDENTITY;
  const v = text.trim().split(/\s+/).map(Number);
  if (v.length !== 12 || !v.every(Number.isFinite)) throw badModel(`3MF: ${where} has an invalid transform '${text.slice(0, 80)}'`);
  return v;
}

/** a then b: a point goes through a first. */
function compose(a: Transform, b: Transform): Transform {
  const r = new Array<number>(12);
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 3; col++) {
      let s = row === 3 ? b[9 + col] : 0;
      for (let k = 0; k < 3; k++) s += a[row * 3 + k] * b[k * 3 + col];
      r[row * 3 + col] = s;
    }
  }
  return r;
}

/** A vertex index attribute as an unsigned integer; anything else maps to an impossible index. */
function index(v: number): number {
  return Number.isInteger(v) && v >= 0 && v < 0xffffffff ? v : 0xffffffff;
}

/** An object's triangles renumbered to the vertices they use, which are listed in file order. */
interface UsedVertices {
  /** indices into the object's vertices, ascending */
  vertices: Uint32Array;
  /** three per triangle, indices into `vertices` */
  triangles: Uint32Array;
}

/** Checks an object's vertex indices (BAD_MODEL naming the first bad one) and lists the vertices they use. */
function usedVertices(obj: ModelObject, objectId: string): UsedVertices {
  const nv = obj.vertices.length / 3;
  const ts = obj.triangles.data;
  const nt = obj.triangles.length;
  const renum = new Int32Array(nv).fill(-1);
  for (let i = 0; i < nt; i++) {
    const v = ts[i];
    if (v >= nv) {
      const shown = v === 0xffffffff ? 'not a valid index' : `'${v}'`;
      throw badModel(`3MF: object ${objectId} has a triangle with vertex index ${shown} (the object has ${nv} vertices)`);
    }
    renum[v] = 0;
  }
  // in file order: welding, which numbers vertices by first appearance, then gives the same mesh as
  // with the unused ones present (unless an unused vertex has the coordinates of a later used one)
  let n = 0;
  for (let v = 0; v < nv; v++) if (renum[v] === 0) renum[v] = n++;
  const vertices = new Uint32Array(n);
  for (let v = 0; v < nv; v++) if (renum[v] >= 0) vertices[renum[v]] = v;
  const triangles = new Uint32Array(nt);
  for (let i = 0; i < nt; i++) triangles[i] = renum[ts[i]];
  return { vertices, triangles };
}

function parseModelPart(xml: Uint8Array, name: string): ModelPart {
  const part: ModelPart = { unit: 1, objects: new Map(), items: [] };
  let current: ModelObject | null = null;
  let badUnit = '';
  let closed = false;
  const where = `model part '${name}'`;
  scanXml(xml, {
    start(tag: string, a: XmlAttributes) {
      switch (tag) {
        case 'vertex': {
          if (!current) return;
          const x = a.number('x');
          const y = a.number('y');
          const z = a.number('z');
          if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
            throw badModel(`3MF: a vertex in ${where} has a coordinate that is not a finite number`);
          }
          current.vertices.push3(x, y, z);
          return;
        }
        case 'triangle': {
          if (!current) return;
          current.triangles.push3(index(a.number('v1')), index(a.number('v2')), index(a.number('v3')));
          return;
        }
        case 'object':
          current = { type: a.get('type') ?? 'model', name: a.get('name'), vertices: new Growable(new Float64Array(48)), triangles: new Growable(new Uint32Array(48)), components: [] };
          part.objects.set(a.get('id') ?? '', current);
          return;
        case 'component':
          current?.components.push({
            objectId: a.get('objectid') ?? '',
            transform: parseTransform(a.get('transform'), where),
            path: a.get('path') ?? '',
          });
          return;
        case 'item':
          part.items.push({ objectId: a.get('objectid') ?? '', transform: parseTransform(a.get('transform'), where), path: a.get('path') ?? '' });
          return;
        case 'model': {
          const u = a.get('unit');
          if (u !== undefined) {
            if (Object.hasOwn(UNIT_MM, u)) part.unit = UNIT_MM[u];
            else badUnit = u;
          }
          return;
        }
      }
    },
    end(tag: string) {
      if (tag === 'object') current = null;
      else if (tag === 'model') closed = true;
    },
  });
  // a part cut short (a truncated download, a bad zip tool) may hold some objects and not others
  if (!closed) throw badModel(`3MF: ${where} is cut short: its XML ends before </model>`);
  if (badUnit) part.unit = NaN; // reported by the caller, which owns the warnings
  return part;
}

/** Finds the root model part: the relationship of the 3D-model type, else the usual path. */
function rootPartName(zip: ZipArchive): string | undefined {
  const rels = zip.find('_rels/.rels');
  if (rels) {
    const text = new TextDecoder().decode(zip.read(rels));
    for (const m of text.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
      const type = /\bType\s*=\s*"([^"]*)"/.exec(m[0])?.[1];
      const target = /\bTarget\s*=\s*"([^"]*)"/.exec(m[0])?.[1];
      if (type === MODEL_REL && target && zip.find(target)) return target;
    }
  }
  if (zip.find('3D/3dmodel.model')) return '3D/3dmodel.model';
  return zip.entries.find((e) => /\.model$/i.test(e.name))?.name;
}

export function readThreeMf(bytes: Uint8Array): RawMesh {
  const zip = new ZipArchive(bytes);
  const warnings: string[] = [];
  const rootName = rootPartName(zip);
  if (!rootName) throw badModel('3MF without a model: the archive holds no 3D/3dmodel.model part');
  const parts = new Map<string, ModelPart>();
  const partOf = (path: string): ModelPart => {
    const key = path.replace(/^\/+/, '').toLowerCase();
    let p = parts.get(key);
    if (!p) {
      const entry = zip.find(path);
      if (!entry) throw badModel(`3MF: the model part '${path}' is missing from the archive`);
      p = parseModelPart(zip.read(entry), path);
      if (Number.isNaN(p.unit)) {
        warnings.push(`3MF: unknown unit in '${path}'; millimetres assumed`);
        p.unit = 1;
      }
      parts.set(key, p);
    }
    return p;
  };
  const root = partOf(rootName);

  // float32 as the result is: each coordinate is rounded once, from the transformed double, either way
  const positions = new Growable(new Float32Array(3 * 1024));
  const indices = new Growable(new Uint32Array(3 * 1024));
  let skipped = 0;
  let placements = 0;
  const printed: RawPart[] = [];
  const place = (partPath: string, objectId: string, m: Transform, depth: number): void => {
    if (depth > 16) throw badModel('3MF: components nest deeper than 16 levels (a cycle?)');
    // depth alone does not bound the work: 15 levels of 10 components each place 10^15 objects
    if (++placements > MAX_PLACEMENTS) {
      throw badModel(`3MF: the build places more than ${MAX_PLACEMENTS.toLocaleString('en-US')} objects (components repeated inside components)`);
    }
    const part = partOf(partPath);
    const obj = part.objects.get(objectId);
    if (!obj) throw badModel(`3MF: a build item or component refers to object ${objectId}, which does not exist`);
    if (obj.type === 'support' || obj.type === 'other' || obj.type === 'surface') {
      skipped++;
      return;
    }
    if (obj.triangles.length > 0) {
      if ((indices.length + obj.triangles.length) / 3 > MAX_TRIANGLES) throw tooManyTriangles(`more than ${MAX_TRIANGLES.toLocaleString('en-US')}`);
      // only the vertices the triangles use: a placement never costs more than its triangles
      // (an object may list any number of vertices no triangle uses, and be placed many times)
      obj.used ??= usedVertices(obj, objectId);
      const { vertices: used, triangles: ts } = obj.used;
      const base = positions.length / 3;
      const u = part.unit;
      const vs = obj.vertices.data;
      for (let k = 0; k < used.length; k++) {
        const i = 3 * used[k];
        const x = vs[i] * u;
        const y = vs[i + 1] * u;
        const z = vs[i + 2] * u;
        positions.push3(x * m[0] + y * m[3] + z * m[6] + m[9], x * m[1] + y * m[4] + z * m[7] + m[10], x * m[2] + y * m[5] + z * m[8] + m[11]);
      }
      for (let i = 0; i < ts.length; i += 3) indices.push3(base + ts[i], base + ts[i + 1], base + ts[i + 2]);
    }
    for (const c of obj.components) {
      // component transforms are in the object's own units; the build item's apply after them
      const scaled = part.unit === 1 ? c.transform : c.transform.map((v, k) => (k >= 9 ? v * part.unit : v));
      place(c.path || partPath, c.objectId, compose(scaled, m), depth + 1);
    }
  };
  if (root.items.length === 0) {
    warnings.push('3MF has no build items: every object was placed as it is');
    for (const id of root.objects.keys()) place(rootName, id, IDENTITY, 0);
  } else {
    for (const item of root.items) {
      const t = root.unit === 1 ? item.transform : item.transform.map((v, k) => (k >= 9 ? v * root.unit : v));
      const vertexStart = positions.length / 3;
      const indexStart = indices.length;
      place(item.path || rootName, item.objectId, t, 0);
      // each build item is an object of its own on the plate (its own ;MESH:, its own cancel in Klipper)
      if (indices.length > indexStart) {
        const name = partOf(item.path || rootName).objects.get(item.objectId)?.name;
        printed.push({ ...(name ? { name } : {}), vertexStart, vertexEnd: positions.length / 3, indexStart, indexEnd: indices.length });
      }
    }
  }
  if (skipped > 0) warnings.push(`3MF: ${skipped} support/other object(s) were not sliced`);
  if (indices.length === 0) throw badModel('3MF without a model: no object with triangles in the build');
  return {
    positions: positions.data.slice(0, positions.length),
    indices: indices.data.slice(0, indices.length),
    unitsKnown: true,
    warnings,
    ...(printed.length > 1 ? { parts: printed } : {}),
  };
}
