import type { Ctx } from '../services/context.js';
import { LINKING_TOOL, readRehearsalPart, REHEARSAL_TEMPLATES } from '../services/studio/rehearsal-links.js';
import { appResources, readAppResource } from './app/resource.js';
import type { McpEndpoint } from './endpoints.js';

/** What resources/read comes to: the contents, the join step for a keyless read of a principal's part, or not found. */
export type ResourceRead =
  | { kind: 'contents'; result: { contents: Record<string, unknown>[] } }
  | { kind: 'join_required'; uri: string }
  | { kind: 'not_found'; message: string };

/**
 * An endpoint's resources, the same in both protocol eras: the MCP App page where a tool that opens it is served
 * (listed), and the parts of a caller's rehearsals where rehearse is served (templates only: resources/list does not
 * enumerate every rehearsal; a rehearsal's answer links its own).
 */
export function endpointResources(e: McpEndpoint) {
  const made = built.get(e);
  if (made) return made;
  const resources = build(e);
  built.set(e, resources);
  return resources;
}

/** Each endpoint's resources, built once (the 2026-07-28 line asks for them per request). */
const built = new WeakMap<McpEndpoint, ReturnType<typeof build>>();

function build(e: McpEndpoint) {
  const resources = appResources((tool) => e.byName.has(tool));
  const resourceTemplates = e.byName.has(LINKING_TOOL) ? REHEARSAL_TEMPLATES : [];
  const served = [...resources.map((r) => r.uri), ...resourceTemplates.map((t) => t.uriTemplate)].join(', ') || 'none';
  return {
    list: { resources },
    templates: { resourceTemplates },
    async read(ctx: Ctx, uri: string): Promise<ResourceRead> {
      const app = await readAppResource(uri);
      if (app) return { kind: 'contents', result: app };
      const part = resourceTemplates.length > 0 ? await readRehearsalPart(ctx, uri) : null;
      if (!part) return { kind: 'not_found', message: `no resource ${uri}: this endpoint serves ${served}` };
      if (part.kind === 'contents') return { kind: 'contents', result: { contents: part.contents } };
      return part.kind === 'join_required' ? { kind: 'join_required', uri } : part;
    },
  };
}
