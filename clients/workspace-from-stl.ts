// Turns an STL into a Workspace file the way the public workspace generator did: the model's
// triangles in absolute bed millimetres, centred on the bed, its base at Z = 0.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseModel } from '../src/engine/mesh/index.js';
import { centreOnBed, workspaceFile } from '../src/service/workspace/build-workspace.js';

export function workspaceFromStl(stlPath: string, bedCentre: [number, number], scale = 1): Record<string, unknown> {
  const { mesh } = parseModel(readFileSync(stlPath), basename(stlPath));
  const positions = scale === 1 ? mesh.positions : mesh.positions.map((v) => v * scale);
  const placed = centreOnBed({ positions, indices: mesh.indices }, bedCentre[0], bedCentre[1]);
  return workspaceFile([{ name: basename(stlPath), mesh: placed }]);
}
