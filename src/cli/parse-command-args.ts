// node:util's parseArgs for the commands, refusing a value option given twice unless it may repeat:
// parseArgs keeps the last one silently, so `stratum slice m.stl -o a.gcode … -o b.gcode` wrote
// b.gcode only, and `--printer X … --printer Y` sliced for Y without a word.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.js';

export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const result = parseArgs({ ...config, tokens: true });
  const first = new Map<string, string>();
  for (const token of result.tokens ?? []) {
    if (token.kind !== 'option') continue;
    const spec = config.options?.[token.name];
    // a flag said twice means the same; a value said twice is one of two things
    if (!spec || spec.type !== 'string' || spec.multiple) continue;
    const given = `${token.rawName} ${JSON.stringify(token.value ?? '')}`;
    const before = first.get(token.name);
    if (before !== undefined) throw new UsageError(`--${token.name} is given twice (${before}, then ${given}): give it once`);
    first.set(token.name, given);
  }
  return result as unknown as ReturnType<typeof parseArgs<T>>;
}
