// The engine's version, written into every G-code header (`;Generated with Stratum <version>`).
// Kept in step with package.json by test/version.test.ts.
export const ENGINE_VERSION = '0.1.0';
