// `stratum workspace from-stl MODEL -o WS.json [--modifier …]… [--pointcloud NAME]`: a Workspace
// file in the real shape, the model centred on the printer's bed with its base at z = 0.
import { basename } from 'node:path';
import { parseCommandArgs } from './parse-command-args.js';
import { parseModel } from '../engine/mesh/index.js';
import { DEFAULT_PRINTER, getPrinter } from '../profiles/index.js';
import { boxMesh, centreOnBed, workspaceFile, type Vec3, type WorkspaceEntryInput } from '../service/workspace/build-workspace.js';
import { meshBox } from '../service/workspace/read-mesh.js';
import { checkFileName } from '../service/file-rules.js';
import { writeFileAtomic } from './atomic-write.js';
import { EXIT_OK, UsageError, writeError } from './errors.js';
import { parseModifierArg } from './modifier-arg.js';
import { refuseToReplaceInput } from './same-file.js';
import { readInputFile } from './read-input.js';

export const WORKSPACE_USAGE = `usage: stratum workspace from-stl MODEL -o WS.json [options]

Writes a Workspace file (.json or .rvwj) holding MODEL centred on the printer's bed, base at z = 0,
the way real Workspace files place it (vertices in absolute bed millimetres).

options:
  -o, --output FILE            the Workspace file to write
  -p, --printer NAME           printer whose bed to centre on (default "${DEFAULT_PRINTER}")
  -m, --modifier BOX:x0,y0,z0,x1,y1,z1:factor[:priority]
                               a box modifier (repeatable): corners in mm from the model's
                               lowest corner, infill density factor 0 (none) … 1 (solid),
                               priority ≥ 1 (default: its position in the list); higher wins
      --pointcloud NAME        a point-cloud modifier over the model's bounding box whose
                               FileReference is NAME (the PC_SV upload's file name)
  -h, --help                   this text
`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      printer: { type: 'string', short: 'p' },
      modifier: { type: 'string', short: 'm', multiple: true },
      pointcloud: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(WORKSPACE_USAGE);
    return EXIT_OK;
  }
  const [sub, model, ...extra] = positionals;
  if (sub !== 'from-stl') throw new UsageError(sub ? `unknown subcommand "${sub}" (only from-stl)` : 'missing subcommand: from-stl', 'workspace');
  if (!model) throw new UsageError('missing MODEL', 'workspace');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`, 'workspace');
  if (!values.output) throw new UsageError('missing -o WS.json', 'workspace');
  const modifiers = (values.modifier ?? []).map(parseModifierArg);
  const printer = getPrinter(values.printer ?? DEFAULT_PRINTER);

  await refuseToReplaceInput(values.output, model);
  // the service takes a Workspace upload only by these extensions (URE001)
  if (!/\.(json|rvwj)$/i.test(values.output)) throw new UsageError(`-o ${values.output}: a Workspace file is named *.json or *.rvwj`, 'workspace');
  const pointcloud = pointCloudName(values.pointcloud ?? []);
  const bytes = await readInputFile(model);
  const name = basename(model);
  const parsed = parseModel(bytes, name);
  // a centre-origin printer (deltas) has (0, 0) in the middle of the bed
  const cx = printer.originCenter ? 0 : printer.bedWidth / 2;
  const cy = printer.originCenter ? 0 : printer.bedDepth / 2;
  const mesh = centreOnBed(parsed.mesh, cx, cy);
  const box = meshBox(mesh);

  const entries: WorkspaceEntryInput[] = [{ name, mesh }];
  modifiers.forEach((m, i) => {
    const min = m.min.map((v, a) => v + box.min[a]!) as Vec3;
    const max = m.max.map((v, a) => v + box.min[a]!) as Vec3;
    const cube = boxMesh(min, max);
    entries.push({ name: `modifier_${i + 1}.stl`, mesh: cube, hull: cube, priority: m.priority ?? i + 1, fillDensity: m.factor });
  });
  if (pointcloud !== undefined) {
    const cube = boxMesh(box.min, box.max);
    entries.push({ name: 'pointcloud_modifier.stl', mesh: cube, hull: cube, priority: modifiers.length + 1, fileReference: pointcloud });
  }
  const size = [0, 1, 2].map((a) => box.max[a]! - box.min[a]!);
  if (size[0]! > printer.bedWidth || size[1]! > printer.bedDepth || size[2]! > printer.bedHeight) {
    process.stderr.write(
      `warning: '${name}' (${size.map((v) => v.toFixed(1)).join(' × ')} mm) is larger than ${printer.name}'s build volume ` +
        `(${printer.bedWidth} × ${printer.bedDepth} × ${printer.bedHeight} mm): a task with this file will fail\n`,
    );
  }
  try {
    await writeFileAtomic(values.output, new TextEncoder().encode(JSON.stringify(workspaceFile(entries))));
  } catch (err) {
    throw writeError(values.output, err);
  }
  const mm = (p: number[]) => p.map((v) => v.toFixed(2)).join(', ');
  process.stderr.write(
    `${values.output}: '${name}' at (${mm(box.min)})…(${mm(box.max)}) mm on ${printer.name}, ${entries.length - 1} modifier(s)\n`,
  );
  return EXIT_OK;
}

/** The one --pointcloud NAME, which must be a name an upload can have (the FileReference matches it). */
function pointCloudName(given: string[]): string | undefined {
  if (given.length > 1) throw new UsageError(`--pointcloud given ${given.length} times: one point-cloud modifier covers the model`, 'workspace');
  const name = given[0];
  if (name === undefined) return undefined;
  try {
    checkFileName(name);
  } catch (err) {
    throw new UsageError(`--pointcloud ${JSON.stringify(name).slice(0, 80)}: ${(err as Error).message}`, 'workspace');
  }
  return name;
}
