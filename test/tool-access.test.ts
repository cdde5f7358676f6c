import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Principal } from '../core/principal.js';
import type { Ctx, SessionCtx } from '../services/context.js';
import { defineTool, type ToolSpec } from '../tools/define.js';

// What `run` is handed follows the tool's access, checked by the typecheck (npm run typecheck runs over test/).
const common = {
  title: 't',
  description: 't',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: { id: 't', default: false, description: 'tools made by a test' },
  output: z.object({ ok: z.literal(true), id: z.string() }),
};

describe('a tool\'s run and its access', () => {
  it('hands a session tool a context whose principal is there', () => {
    defineTool({
      ...common,
      name: 't_session',
      access: 'session',
      async run(ctx) {
        expectTypeOf(ctx).toEqualTypeOf<SessionCtx>();
        expectTypeOf(ctx.principal).toEqualTypeOf<Principal>();
        return { ok: true as const, id: ctx.principal.id };
      },
    });
  });

  it('hands a tool open without a session a context that may have no principal', () => {
    for (const access of ['none', 'optional'] as const) {
      defineTool({
        ...common,
        name: `t_${access}`,
        access,
        async run(ctx) {
          expectTypeOf(ctx).toEqualTypeOf<Ctx>();
          expectTypeOf(ctx.principal).toEqualTypeOf<Principal | null>();
          // @ts-expect-error: without a session there may be no principal to read
          return { ok: true as const, id: ctx.principal.id };
        },
      });
    }
  });

  it('does not take a session run on a tool open without a session', () => {
    const run = async (ctx: SessionCtx) => ({ id: ctx.principal.id });
    // @ts-expect-error: a run that needs the principal cannot serve a tool open without a session
    const spec: ToolSpec<z.ZodObject, { id: string }> = { ...common, name: 't_wrong', access: 'optional', run };
    expectTypeOf(spec).not.toBeAny();
  });
});
