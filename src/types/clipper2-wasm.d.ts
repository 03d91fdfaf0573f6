// clipper2-wasm 0.4.0 points its "types" at a file it does not ship; its real declarations are in
// dist/clipper2z.d.ts. This names the package's main entry (its CommonJS build, a factory) and reuses
// those declarations.
declare module 'clipper2-wasm' {
  import type { MainModule } from 'clipper2-wasm/dist/clipper2z.js';
  /** Emscripten's module options: locateFile maps a file the glue loads (the .wasm) to its path. */
  const factory: (moduleArg?: { locateFile?: (file: string, scriptDirectory: string) => string }) => Promise<MainModule>;
  export default factory;
}
