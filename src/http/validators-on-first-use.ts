/**
 * Request validators compiled when a route is first asked, not when the server starts.
 *
 * Ajv turns each route's schema into code; for the gateway's routes (about 40 schemas) that was about a
 * sixth of the CPU of a start (measured with --cpu-prof on a two-core machine: 285 ms of 1.8 s), paid by
 * every process, while most processes (a node restarted after a crash, one node of a cluster) are asked
 * only some of those routes. Compiled on first use, a route pays its own compile once, a few milliseconds,
 * on its first request. A schema Ajv cannot compile would then fail that request instead of the start,
 * which is why the suites compile every route's schema (`compileWaiting`, test/e2e/route-schemas.test.ts;
 * docs/adr/0042-request-validators-compiled-on-first-use.md).
 */
import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';

type Compile = ReturnType<BuildCompilerFromPool>;
type Validator = ReturnType<Compile>;

export interface ValidatorsOnFirstUse {
  /** For Fastify's `schemaController.compilersFactory.buildValidator`. */
  buildValidator: BuildCompilerFromPool;
  /** Compiles every schema a route was given and no request has used yet; returns how many. */
  compileWaiting(): number;
}

/** `factory`'s compilers, each returning a validator that compiles its schema when first called. */
export function validatorsOnFirstUse(factory: BuildCompilerFromPool): ValidatorsOnFirstUse {
  // Keyed by schema object: the schemas are module constants, so every server built in a process (the
  // suites build hundreds) shares one entry per schema, and the map stays as small as the route table.
  const waiting = new Map<unknown, () => unknown>();
  return {
    buildValidator: (externalSchemas, options) => {
      const compile = factory(externalSchemas, options);
      return (route) => {
        const validator = onFirstUse(
          () => compile(route),
          () => waiting.delete(route.schema),
        );
        waiting.set(route.schema, validator.compile);
        return validator.validate;
      };
    },
    compileWaiting() {
      const thunks = [...waiting.values()];
      for (const compile of thunks) compile();
      return thunks.length;
    },
  };
}

function onFirstUse(compile: () => Validator, compiledNow: () => void) {
  let compiled: Validator | undefined;
  const validator = () => {
    if (!compiled) {
      compiled = compile();
      compiledNow();
    }
    return compiled;
  };
  function validate(this: unknown, data: unknown, context?: DataValidationCxt): boolean | Promise<unknown> {
    const real = validator();
    const result = real.call(this, data, context);
    // Fastify reads the errors of a failed validation off the function it called.
    validate.errors = real.errors;
    return result;
  }
  validate.errors = undefined as Validator['errors'];
  // Fastify reads `schemaEnv` to know it may hand Ajv the request as the root's parent: an Ajv validator
  // always has one, so asking for it compiles, as the first request does anyway. (Ajv types its validators
  // as type guards, which no wrapper can be declared as: hence the cast.)
  Object.defineProperties(validate, {
    schema: { get: () => validator().schema },
    schemaEnv: { get: () => validator().schemaEnv },
  });
  return { validate: validate as unknown as Validator, compile: validator };
}
