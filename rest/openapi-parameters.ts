/**
 * Shared parameters, stated once: a parameter met whole (name, place, schema and its description) on several
 * operations is one entry of components.parameters that each refers to, where that is shorter than writing it out
 * (the MCP endpoints' toolsets, a list's limit and offset, a series' id). Named for the parameter, or where that name
 * is another parameter's, for the operation it was met on first as well (`run_read.id`).
 */

type Parameter = { name: string; [key: string]: unknown };
type Operation = { operationId?: string; parameters?: (Parameter | { $ref: string })[] };

const REF = '#/components/parameters/';

/** Shares the document's repeated parameters as components.parameters, in place. */
export function shareParameters(doc: { paths: Record<string, Record<string, unknown>>; components: Record<string, unknown> }): void {
  const ops = Object.values(doc.paths).flatMap((methods) => Object.values(methods) as Operation[]);
  const met = new Map<string, { parameter: Parameter; count: number; first: Operation }>();
  for (const op of ops) {
    for (const p of op.parameters ?? []) {
      if ('$ref' in p) continue;
      const text = JSON.stringify(p);
      const seen = met.get(text);
      if (seen) seen.count++;
      else met.set(text, { parameter: p as Parameter, count: 1, first: op });
    }
  }
  const names = new Map<string, string>();
  const shared: Record<string, Parameter> = {};
  for (const [text, { parameter, count, first }] of met) {
    if (count < 2) continue;
    const name = parameter.name in shared && first.operationId ? `${first.operationId}.${parameter.name}` : parameter.name;
    // Written out at each place, or once as a component and referred to: shared only where that is shorter.
    const ref = JSON.stringify({ $ref: `${REF}${name}` }).length;
    if (name in shared || count * text.length <= text.length + name.length + 3 + count * ref) continue;
    shared[name] = parameter;
    names.set(text, name);
  }
  if (!Object.keys(shared).length) return;
  for (const op of ops) {
    if (!op.parameters) continue;
    op.parameters = op.parameters.map((p) => {
      const name = '$ref' in p ? undefined : names.get(JSON.stringify(p));
      return name === undefined ? p : { $ref: `${REF}${name}` };
    });
  }
  doc.components.parameters = shared;
}
