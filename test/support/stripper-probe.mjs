// Loaded with --import into a child process only (test/unit/compile-cache.test.ts), never into a suite's
// own: as that process exits, it writes whether Node loaded its TypeScript stripper, an internal module
// named amaro.
process.on('exit', () => {
  process.stderr.write(`stripper:${process.moduleLoadList.some((m) => m.includes('amaro'))}\n`);
});
