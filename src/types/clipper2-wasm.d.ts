// clipper2-wasm 0.4.0 points its "types" at a file it does not ship; its real declarations are in
// dist/clipper2z.d.ts. This names the ES module entry and reuses those declarations.
declare module 'clipper2-wasm/dist/es/clipper2z.js' {
  import type { MainModule } from 'clipper2-wasm/dist/clipper2z.js';
  const factory: () => Promise<MainModule>;
  export default factory;
}
