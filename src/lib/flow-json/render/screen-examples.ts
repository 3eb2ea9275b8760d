/**
 * A screen's example data: what the gateway's flow preview and the simulator's phone show before real
 * data arrives, as Meta's preview does.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `data: {key: {type, __example__}}` → `{key: example}`. */
export function examplesOf(screen: Json): Json {
  const data = isObject(screen.data) ? screen.data : {};
  return Object.fromEntries(
    Object.entries(data).map(([key, decl]) => [key, isObject(decl) ? decl.__example__ : undefined]),
  );
}
