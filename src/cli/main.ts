// `stratum <command>`: the command-line entry point (bin/stratum.js imports this file).
// Each command lives in its own module, loaded only when asked for, so `stratum printers` does not
// load the engine and a command whose module is missing fails alone with a clear message.
import { guardStdout } from './stdout-errors.js';
import { readFileSync } from 'node:fs';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, describeError } from './errors.js';
import { reportError } from './report-error.js';

type CommandRun = (argv: string[]) => Promise<number>;

const USAGE = `usage: stratum <command> [options]

commands:
  serve                      run the slicing service (HTTP API, interface v1)
                             [--role all|api|worker]: distributed roles (docs/deployment.md)
  worker                     a slicing worker of the distributed mode (serve --role worker)
  keys create|list|revoke    manage API keys of the embedded store
  slice MODEL -o OUT         slice a model (STL, OBJ, 3MF) into G-code or FCode
                             [MODEL MODEL… -o DIR]: several in one process
  fcode decode|encode|info FILE [-o OUT]
                             FCode files: back to G-code, from G-code, header as JSON
  preview GCODE --layer N -o PNG
                             draw one layer of a G-code file, coloured by feature type
  workspace from-stl MODEL -o WS.json [--modifier BOX:…]
                             write a Workspace file (model centred on the bed, modifiers)
  pointcloud --dims NX,NY,NZ --hardness EXPR -o FILE.pcsv
                             write a PC_SV shore-value point cloud
  printers                   list the printer presets
  filaments                  list the filament presets
  qualities                  list the quality presets
  help [COMMAND]             this text, or a command's own help
  --version                  print the version

Run \`stratum COMMAND --help\` for a command's options. Exit codes: 0 ok, 1 failure,
2 wrong usage, 130 interrupted.
`;

// Modules written by other parts of the project are imported through a variable so that this
// file compiles, and the other commands work, before they exist.
const importLoose = (specifier: string) => import(specifier) as Promise<{ run: CommandRun }>;

const COMMANDS: Record<string, () => Promise<{ run: CommandRun }>> = {
  serve: () => importLoose('./serve.js'),
  worker: () => importLoose('./serve.js').then((m) => ({ run: (argv: string[]) => m.run([...argv, '--role', 'worker']) })),
  keys: () => importLoose('./keys.js'),
  slice: () => import('./slice-command.js'),
  fcode: () => import('./fcode-command.js'),
  preview: () => import('./preview-command.js'),
  workspace: () => import('./workspace-command.js'),
  pointcloud: () => import('./pointcloud-command.js'),
  printers: () => import('./catalogue-command.js').then((m) => ({ run: m.runPrinters })),
  filaments: () => import('./catalogue-command.js').then((m) => ({ run: m.runFilaments })),
  qualities: () => import('./catalogue-command.js').then((m) => ({ run: m.runQualities })),
};

export function readVersion(): string {
  for (const rel of ['../../../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'stratum' && pkg.version) return pkg.version;
    } catch {
      /* try the next location: compiled (dist/src/cli) or run from source (src/cli) */
    }
  }
  return 'unknown';
}

async function loadCommand(name: string): Promise<CommandRun> {
  try {
    return (await COMMANDS[name]()).run;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
      if (process.env.STRATUM_DEBUG === '1') console.error(err);
      throw new Error(`the "${name}" command is not available in this build (a module it needs is missing)`);
    }
    throw err;
  }
}

export async function main(argv: string[]): Promise<number> {
  guardStdout();
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    // `stratum help --help` is a request for help as well
    const topic = command === 'help' && rest[0] !== '--help' && rest[0] !== '-h' ? rest[0] : undefined;
    if (topic && topic in COMMANDS) return main([topic, '--help']);
    if (topic) {
      process.stderr.write(`stratum: unknown command "${topic}"\n\n${USAGE}`);
      return EXIT_USAGE;
    }
    // A bare `stratum` is a usage error; an explicit request for help is not.
    (command === undefined ? process.stderr : process.stdout).write(USAGE);
    return command === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`${readVersion()}\n`);
    return EXIT_OK;
  }
  if (!(command in COMMANDS)) {
    process.stderr.write(`stratum: unknown command "${command}"\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    const run = await loadCommand(command);
    return await run(rest);
  } catch (err) {
    return reportError(command, err);
  }
}

// Run when executed (directly or through bin/stratum.js), not when imported by a test.
const invokedPath = process.argv[1] ?? '';
if (/(?:^|[\\/])(?:main\.js|stratum(?:\.js)?)$/.test(invokedPath)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(`stratum: ${describeError(err)}`);
      if (process.env.STRATUM_DEBUG === '1') console.error(err);
      process.exitCode = EXIT_FAILURE;
    },
  );
}
