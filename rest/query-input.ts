import { z } from 'zod';

/** What a field of a tool's input takes, seen through optional, default, nullable and pipes. */
type Scalar = 'number' | 'boolean' | 'text';

function scalarOf(schema: z.ZodType): Scalar {
  if (schema instanceof z.ZodNumber) return 'number';
  if (schema instanceof z.ZodBoolean) return 'boolean';
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return scalarOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return scalarOf(schema.in as z.ZodType);
  // A time takes unix seconds or ISO text: digits are read as the number, other text passed on as text.
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).some((o) => scalarOf(o) === 'number') ? 'number' : 'text';
  return 'text';
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const YES_NO: Record<string, boolean> = { '1': true, true: true, '0': false, false: false };

/**
 * Query and path values arrive as text. A field the tool takes as a number or a yes/no is read as one here, in the
 * REST binding, so a tool's schema (what agents are shown) takes numbers and booleans only. Text that reads as
 * neither is passed on as it came, and the tool's schema refuses it naming the field. The kind of each field is read
 * from the schema once, when the route is made.
 */
export function textReader(input: z.ZodObject): (values: Record<string, unknown>) => Record<string, unknown> {
  const kinds = new Map(Object.entries(input.shape as Record<string, z.ZodType>).map(([key, field]) => [key, scalarOf(field)]));
  return (values) =>
    Object.fromEntries(
      Object.entries(values).map(([key, value]) => {
        if (typeof value !== 'string') return [key, value];
        const kind = kinds.get(key);
        if (kind === 'number' && DECIMAL.test(value)) return [key, Number(value)];
        if (kind === 'boolean' && value in YES_NO) return [key, YES_NO[value]];
        return [key, value];
      }),
    );
}
