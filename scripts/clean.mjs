// Removes the compiled output so that deleted sources leave no stale tests or modules behind.
import { rmSync } from 'node:fs';
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
