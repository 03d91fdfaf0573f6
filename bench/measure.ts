// Whole-process measurement of one command: wall time and peak resident memory.
// Peak RSS comes from GNU time (`/usr/bin/time -f %M`, kilobytes) when it is installed, otherwise
// from polling the child's VmHWM in /proc (a high-water mark, so polling misses nothing but the end).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Measurement {
  ok: boolean;
  exitCode: number | null;
  wallS: number;
  /** peak RSS in MiB, null if it could not be read */
  rssMiB: number | null;
  stderr: string;
}

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);
const scratch = mkdtempSync(join(tmpdir(), 'stratum-measure-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

export function peakRssMethod(): string {
  return hasGnuTime ? 'GNU time %M' : '/proc VmHWM polling';
}

/** Runs `cmd args…`, waits, and reports wall time, peak RSS, exit code and stderr (kept whole). */
export function measure(
  cmd: string,
  args: string[],
  opts: { stderrFile?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Measurement> {
  const timeFile = join(scratch, 'time.txt');
  writeFileSync(timeFile, '');
  const argv = hasGnuTime ? [GNU_TIME, '-f', '%e %M', '-o', timeFile, cmd, ...args] : [cmd, ...args];
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'ignore', 'pipe'] });
    const errChunks: Buffer[] = [];
    child.stderr.on('data', (b: Buffer) => errChunks.push(b));
    let polledKb = 0;
    const poll = hasGnuTime
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) polledKb = Math.max(polledKb, Number(m[1]));
          } catch {
            /* the process has just ended */
          }
        }, 20);
    child.on('error', (err) => {
      if (poll) clearInterval(poll);
      resolve({ ok: false, exitCode: null, wallS: 0, rssMiB: null, stderr: String(err) });
    });
    child.on('close', (code) => {
      const wallS = (performance.now() - started) / 1000;
      if (poll) clearInterval(poll);
      let stderr = Buffer.concat(errChunks).toString('utf8');
      let kb: number | null = polledKb || null;
      if (hasGnuTime) {
        const m = /(\d+(?:\.\d+)?) (\d+)\s*$/.exec(readFileSync(timeFile, 'utf8'));
        kb = m ? Number(m[2]) : null;
        // GNU time notes a non-zero exit in its own file, not on stderr: nothing to strip here.
      }
      if (opts.stderrFile) writeFileSync(opts.stderrFile, stderr);
      stderr = stderr.trim();
      resolve({ ok: code === 0, exitCode: code, wallS, rssMiB: kb === null ? null : kb / 1024, stderr });
    });
  });
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
